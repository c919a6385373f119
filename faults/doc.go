// Package faults holds integration tests that run the real perfilseguro processes on loopback
// and break what they depend on: Redis stopped, a worker killed mid-job, the WhatsApp provider
// down, Postgres restarted. The tests are the whole package.
package faults
