package main

import (
	"testing"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"
)

func TestAsynqUsesTheRedisOfREDIS_URL(t *testing.T) {
	for _, tc := range []struct{ url, network, addr string }{
		{"redis://:s3cret@10.0.0.5:6380/4", "tcp", "10.0.0.5:6380"},
		{"unix:///run/redis/redis.sock?db=2", "unix", "/run/redis/redis.sock"},
	} {
		o, err := redis.ParseURL(tc.url)
		require.NoError(t, err)
		opt := asynqOptions(o)
		require.Equal(t, tc.network, opt.Network, tc.url)
		require.Equal(t, tc.addr, opt.Addr, tc.url)
		require.Equal(t, o.DB, opt.DB, tc.url)
		require.Equal(t, o.Password, opt.Password, tc.url)
	}
}
