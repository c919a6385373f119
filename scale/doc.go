// Package scale is the proof rig for running on several machines (make scale): Redis Sentinel
// and Redis Cluster on loopback, two API processes, three workers and two schedulers as the
// Procfile runs them, a fake WhatsApp Cloud API, and an open-loop load of sign-ins while the Redis
// primary, then a worker and an API, are killed; and a rolling restart under load. It runs when
// SCALE_SECONDS is set (60 for make scale, 20 in make test).
package scale
