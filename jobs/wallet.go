package jobs

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"time"

	"github.com/hibiken/asynq"

	perfilseguro "github.com/perfilseguro/perfilseguro"
)

// Wallet pass builds. Building is idempotent (the stored data_hash decides whether anything
// changed), so the tasks carry no TaskID and may run any number of times.
const (
	TypeBuildApplePass  = "wallet:build_apple"  // (re)build the user's signed .pkpass
	TypeBuildGooglePass = "wallet:build_google" // (re)build the user's Google Wallet save link
)

// WalletPayload names the user whose pass is (re)built.
type WalletPayload struct {
	UserID int64 `json:"userId"`
}

// NewBuildApplePassTask builds the Apple Wallet pass job for a user on the default queue.
func NewBuildApplePassTask(userID int64) (*asynq.Task, error) {
	return newWalletTask(TypeBuildApplePass, userID)
}

// NewBuildGooglePassTask builds the Google Wallet pass job for a user on the default queue.
func NewBuildGooglePassTask(userID int64) (*asynq.Task, error) {
	return newWalletTask(TypeBuildGooglePass, userID)
}

func newWalletTask(typ string, userID int64) (*asynq.Task, error) {
	return newTask(typ, WalletPayload{UserID: userID},
		asynq.Queue(QueueDefault), asynq.MaxRetry(10), asynq.Timeout(time.Minute))
}

// passLayoutVersion changes whenever the look or content of a built pass changes, so every
// stored pass is rebuilt on its next request.
const passLayoutVersion = "3" // 2: the PassKit web service; 3: the ID's expiry (issue 52)

// PassDataFor returns what a user's wallet pass shows, or false when the user may not hold a
// pass: below level 3, or never validated. Expiry is fecha_validacion + vigencia years, or the
// end of the identity document's expiry day when that comes first (IDExpiresOn then says so).
// The name is users.nombre: the document's name once the ID certified the profile.
func PassDataFor(u perfilseguro.User, publicBaseURL string) (perfilseguro.PassData, bool) {
	until := u.ValidUntil()
	// A validation annulled by a change of name keeps its pass, voided, until the new check.
	annulled := u.RevalidationRequiredAt != nil
	if (u.VerificationLevel < perfilseguro.LevelBiometric && !annulled) || until == nil {
		return perfilseguro.PassData{}, false
	}
	if u.Mode() != perfilseguro.Live {
		return perfilseguro.PassData{}, false // a simulator validated them: nothing we sign says they are real
	}
	return perfilseguro.PassData{
		UserID:      u.ID,
		Name:        u.Nombre,
		ProfileID:   u.IDValidado,
		Level:       u.VerificationLevel,
		ValidFrom:   u.FechaValidacion.UTC(),
		ValidUntil:  until.UTC(),
		IDExpiresOn: IDCap(u),
		VerifyURL:   VerifyURL(publicBaseURL, u.IDValidado),
		Status:      passStatus(u),
		// The token is not part of the data: it never changes for a pass (see PassDataHash).
		WebServiceURL: PassKitURL(publicBaseURL),
	}, true
}

// IDCap is the certifying ID's expiry date (UTC midnight) when it ends the validity before the
// plan's years do, else nil: passes and reminders then say so (issue 52).
func IDCap(u perfilseguro.User) *time.Time {
	if u.DocumentExpiresOn == nil || u.FechaValidacion == nil {
		return nil
	}
	if perfilseguro.DocumentValidThrough(*u.DocumentExpiresOn).Before(u.FechaValidacion.AddDate(u.Vigencia, 0, 0)) {
		d := u.DocumentExpiresOn.UTC()
		return &d
	}
	return nil
}

// PassKitURL is the webServiceURL of Apple passes: the PassKit web service appends /v1/….
func PassKitURL(publicBaseURL string) string { return publicBaseURL + "/api/passkit" }

// passStatus is the pass's status as recorded: revoked wins over expired. The recorded expiry
// (profile:expire), not the clock, decides, so a pass's data stays the same between two builds.
func passStatus(u perfilseguro.User) string {
	switch {
	case u.RevokedAt != nil:
		return perfilseguro.PassRevoked
	case u.RevalidationRequiredAt != nil:
		return perfilseguro.PassAnnulled
	case u.ExpiredAt != nil:
		return perfilseguro.PassExpired
	}
	return perfilseguro.PassValid
}

// VerifyURL is the public verification link of a profile, encoded in QR codes and passes.
func VerifyURL(publicBaseURL, profileID string) string {
	return publicBaseURL + "/verify/" + profileID
}

// PassDataHash is the hex SHA-256 of p and the pass layout version: a stored pass is rebuilt
// only when it changes (wallet_passes.data_hash).
func PassDataHash(p perfilseguro.PassData) string {
	h := sha256.New()
	for _, f := range []string{passLayoutVersion, strconv.FormatInt(p.UserID, 10), p.Name, p.ProfileID,
		strconv.Itoa(p.Level), p.ValidFrom.UTC().Format(time.RFC3339Nano),
		p.ValidUntil.UTC().Format(time.RFC3339Nano), p.VerifyURL, p.Status, p.WebServiceURL, idCapText(p.IDExpiresOn)} {
		h.Write([]byte(strconv.Itoa(len(f)) + ":" + f + ";"))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// TypePushPassUpdate tells every device that installed a user's Apple pass that it changed.
const TypePushPassUpdate = "passkit:push"

// PushPassUpdatePayload names the user whose pass was rebuilt and the build (its data hash), or,
// for a deleted account's voided pass, the serial number alone.
type PushPassUpdatePayload struct {
	UserID       int64  `json:"userId,omitempty"`
	DataHash     string `json:"dataHash,omitempty"`
	SerialNumber string `json:"serialNumber,omitempty"`
}

// NewPushPassUpdateTask builds the pushes for one build of a pass; the TaskID makes a second
// enqueue of the same build a no-op. Retried with asynq's backoff while APNs is unreachable.
func NewPushPassUpdateTask(p PushPassUpdatePayload) (*asynq.Task, error) {
	return newTask(TypePushPassUpdate, p, asynq.Queue(QueueDefault), asynq.MaxRetry(12),
		asynq.Timeout(time.Minute), asynq.Retention(time.Hour),
		asynq.TaskID(fmt.Sprintf("%s:%d:%s:%s", TypePushPassUpdate, p.UserID, p.DataHash, p.SerialNumber)))
}

// idCapText is the ID's expiry in PassDataHash ("" without one).
func idCapText(d *time.Time) string {
	if d == nil {
		return ""
	}
	return d.Format(time.DateOnly)
}
