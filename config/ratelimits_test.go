package config_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/config"
)

func TestRateLimitsFromEnvironment(t *testing.T) {
	t.Parallel()
	env := func(vars map[string]string) func(string) string { return func(k string) string { return vars[k] } }

	c, err := config.Load(env(map[string]string{"RATE_LIMIT_SEND_PER_IP": "500", "RATE_LIMIT_VERIFY_PER_USER": "40"}))
	require.NoError(t, err)
	require.Equal(t, config.RateLimits{SendPerIP: 500, VerifyPerUser: 40}, c.RateLimits)

	c, err = config.Load(env(nil))
	require.NoError(t, err)
	require.Equal(t, config.RateLimits{}, c.RateLimits, "unset keeps the API defaults")

	_, err = config.Load(env(map[string]string{"RATE_LIMIT_SEND_PER_EMAIL": "muchos"}))
	require.ErrorContains(t, err, "RATE_LIMIT_SEND_PER_EMAIL")

	// The administrator's sign-in limit can be raised for the test suite, never in production.
	c, err = config.Load(env(map[string]string{"APP_ENV": "test", "RATE_LIMIT_ADMIN_LOGIN_PER_IP": "1000"}))
	require.NoError(t, err)
	require.Equal(t, 1000, c.RateLimits.AdminLoginPerIP)
}
