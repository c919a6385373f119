// Package load holds the load benchmarks of `make bench`: the sign-in pipeline (request →
// job → provider) and a fixed-rate mixed load (public verification, sign-in, status polling).
// They run the real API and worker (in-process, and for the sign-in pipeline also as the
// Procfile's separate processes) against the local Postgres and Redis.
package load
