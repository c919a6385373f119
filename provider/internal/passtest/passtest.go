// Package passtest holds what the wallet providers' tests share.
package passtest

import (
	"time"

	perfilseguro "github.com/perfilseguro/perfilseguro"
)

// Sample is the pass the Apple and Google Wallet tests build: a level-3 profile valid one year.
var Sample = perfilseguro.PassData{
	UserID:     42,
	Name:       "María José Núñez",
	ProfileID:  "PS-1234-5678-90",
	Level:      3,
	ValidFrom:  time.Date(2025, 3, 7, 0, 0, 0, 0, time.UTC),
	ValidUntil: time.Date(2026, 3, 7, 0, 0, 0, 0, time.UTC),
	VerifyURL:  "https://perfilseguro.mx/verify/PS-1234-5678-90",
}
