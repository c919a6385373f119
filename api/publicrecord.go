package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/perfilseguro/perfilseguro/postgres"
)

// publicRecord is a public verification answer rendered once to JSON, but for the two parts that
// depend on the moment of the answer: whether the profile is expired and the timestamp. Serving a
// cached record is then two copies and a time format, and the cache holds one pointer per record
// for the garbage collector to scan instead of a dozen.
type publicRecord struct {
	body       []byte // the answer with "expirado" and "timestamp" cut out at the offsets below
	expiredAt  int    // where the expirado value goes
	stampAt    int    // where the timestamp value goes
	validUntil int64  // unix nanoseconds the validity ends; 0: no validity (never validated)
	userID     int64
	verified   bool
	revoked    bool
	notFound   bool // no profile has this ID (yet: a new profile is announced like a change)
}

// Markers of the two moment-dependent values, as encoding/json writes them for a zero moment. A
// string value can never contain them unescaped, so each is found only where its key is.
var (
	expiredMarker = []byte(`"expirado":false`)
	stampMarker   = []byte(`"timestamp":"0001-01-01T00:00:00Z"`)
)

// renderPublicRecord renders p once, as publicVerification would at any moment.
func renderPublicRecord(p postgres.PublicProfile) (publicRecord, error) {
	res := publicVerification(p, time.Time{}) // the zero moment: never expired, zero timestamp
	raw, err := json.Marshal(res)
	if err != nil {
		return publicRecord{}, err
	}
	e, t := bytes.Index(raw, expiredMarker), bytes.LastIndex(raw, stampMarker)
	if e < 0 || t < e {
		return publicRecord{}, fmt.Errorf("render public record %s: markers not found", p.IDValidado)
	}
	e += len(`"expirado":`)
	t += len(`"timestamp":`)
	var body []byte
	body = append(body, raw[:e]...)
	body = append(body, raw[e+len("false"):t]...)
	body = append(body, raw[t+len(`"0001-01-01T00:00:00Z"`):]...)
	rec := publicRecord{body: body, expiredAt: e, stampAt: t - len("false"), userID: p.UserID,
		verified: res.Profile.Verificado, revoked: res.Profile.Revocado}
	if until := res.Profile.FechaExpiracion; until != nil {
		rec.validUntil = until.UnixNano()
	}
	return rec, nil
}

// expired reports whether the validity ended before now (publicVerification's rule).
func (r publicRecord) expired(now time.Time) bool {
	return r.validUntil != 0 && now.UnixNano() > r.validUntil
}

// answer is the record's JSON answer at now, ending in a newline.
func (r publicRecord) answer(now time.Time) []byte {
	out := make([]byte, 0, len(r.body)+48)
	out = append(out, r.body[:r.expiredAt]...)
	out = strconv.AppendBool(out, r.expired(now))
	out = append(out, r.body[r.expiredAt:r.stampAt]...)
	out = append(out, '"')
	out = now.UTC().AppendFormat(out, time.RFC3339Nano)
	out = append(out, '"')
	out = append(out, r.body[r.stampAt:]...)
	return append(out, '\n')
}
