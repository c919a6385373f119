// Package load holds the load benchmarks of `make bench`: the sign-in pipeline (request →
// job → provider) and a fixed-rate mixed load (public verification, sign-in, status polling).
// They run the real API and worker in-process against the local Postgres and Redis.
package load
