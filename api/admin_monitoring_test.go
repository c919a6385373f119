package api_test

import (
	"io"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func mustURL(t *testing.T, raw string) *url.URL {
	t.Helper()
	u, err := url.Parse(raw)
	require.NoError(t, err)
	return u
}

func urlQuery(s string) string { return url.QueryEscape(s) }

func TestMonitoringDashboardSendsBrowsersToAdminLoginAndOpensForAdmins(t *testing.T) {
	t.Parallel()
	e := setup(t)
	r := e.send(t, anonymous(), "GET", "/admin/monitoring/", nil, "Accept", "text/html,application/xhtml+xml")
	require.Equal(t, http.StatusSeeOther, r.Status)
	require.Equal(t, "/admin-login", r.Header.Get("Location"))
	r = e.send(t, anonymous(), "GET", "/admin/monitoring/api/queues", nil)
	require.Equal(t, http.StatusUnauthorized, r.Status, "the dashboard's own API is closed too")

	admin := e.adminClient(t)
	r = e.send(t, admin, "GET", "/admin/monitoring/", nil, "Accept", "text/html")
	require.Equal(t, http.StatusOK, r.Status)
	require.Contains(t, string(r.Body), "<html")
	r = e.send(t, admin, "GET", "/admin/monitoring/api/queues", nil)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
}

func TestMetricsCountRequestsByRouteAndReportQueues(t *testing.T) {
	t.Parallel()
	e := setup(t)
	require.Equal(t, http.StatusUnauthorized, e.send(t, anonymous(), "GET", "/metrics", nil).Status)
	admin := e.adminClient(t)
	e.send(t, admin, "GET", "/api/users/12345", nil)
	r := e.send(t, admin, "GET", "/metrics", nil)
	require.Equal(t, http.StatusOK, r.Status)
	body := string(r.Body)
	require.Contains(t, body, `perfilseguro_http_requests_total{code="200",method="POST",route="POST /api/admin/login"} 1`)
	require.Contains(t, body, `perfilseguro_http_requests_total{code="404",method="GET",route="GET /api/users/{id}"} 1`)
	require.Contains(t, body, "perfilseguro_http_request_duration_seconds_bucket")
	require.Contains(t, body, "asynq_up 1")
}

func TestMetricsOnASeparateAddressNeedNoSession(t *testing.T) {
	t.Parallel()
	e := setup(t)
	addr := e.serveMetrics(t)
	var res *http.Response
	var err error
	require.Eventually(t, func() bool {
		res, err = http.Get("http://" + addr + "/metrics")
		return err == nil
	}, 5*time.Second, 20*time.Millisecond)
	defer res.Body.Close()
	require.Equal(t, http.StatusOK, res.StatusCode)
	buf, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	require.Contains(t, string(buf), "go_goroutines")
}
