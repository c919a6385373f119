// Package aml knows the arithmetic of the LFPIORPI (Mexico's anti-money-laundering law) for
// real-estate businesses: whether an operation requires identifying the client and whether it
// requires an aviso, given the thresholds table (activity → identification and aviso thresholds
// in UMA) and the UMA table (year → daily value in pesos), both data that administrators
// maintain with their legal source (sql/migrations/0035_aml_tables.sql, docs/aml.md). It also
// validates an RFC (format, date and the SAT's check digit). It speaks no HTTP and touches no
// database.
//
// Money is integer centavos (Centavos), never floating point. A threshold in pesos is the UMA's
// daily value times the threshold in UMA, exact in centavos.
//
// Which UMA applies: the one in force on the operation's day. INEGI publishes each year's value
// in January and it is in force from 1 February to 31 January of the next year, so an operation
// on 15 January 2026 is measured in the 2025 UMA. Each UMA row carries the day it takes effect.
package aml
