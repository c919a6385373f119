// Package scale is the proof rig for running on several machines (make scale): Redis Sentinel
// and Redis Cluster on loopback, two API processes, three workers and two schedulers as the
// Procfile runs them, a fake WhatsApp Cloud API, and an open-loop load of sign-ins while the Redis
// primary, then a worker and an API, are killed; and a rolling restart under load. It runs when
// SCALE_SECONDS is set (60 for make scale, 20 in make test).
//
// For reading a run: SCALE_DEBUG=1 prints the last lines of every process and, for the Postgres
// scenarios, the answers second by second; SCALE_LOGS=<dir> writes every process's whole output
// (API, worker, scheduler, Patroni, etcd, HAProxy) into that directory.
package scale
