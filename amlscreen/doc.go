// Package amlscreen screens the people of a business's LFPIORPI operations (issue 53 item 3):
// each person, by the name and birth date their document gave when they were added to the
// operation, and each beneficiario controlador they declared, against the lists the business
// may see in the operation's mode (the UN list and its own uploads; test operations against test
// lists only), plus the provider's own AML screening when the person's verification carried one.
//
// It decides what to screen and what to record, and holds the worker's index; it speaks no SQL
// (postgres/aml_screenings.go stores the screenings and hits) and sends nothing (the worker's
// aml handlers queue the screenings and tell the business).
//
// Each subject is screened only against list versions it was not screened against yet, so the
// screening of an operation and every re-screen after an import are idempotent: a second run
// records nothing, and a re-screen after a new version records one screening per new version
// and only the entries not raised before (aml_hits_once).
package amlscreen
