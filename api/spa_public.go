package api

import (
	"bytes"
	"compress/gzip"
	"net/http"
	"slices"
	"strings"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/jobs"
)

// publicRecordElement is the id of the data block that carries a public record in the HTML of
// /verify/{id}; web/src/features/public-verify/api/get-public-verification.ts reads it.
const publicRecordElement = "ps-public-record"

// embeddedPublicRecord is the answer GET /api/verify/{id} would give for a page request of
// /verify/{id}, so the public page paints its card on first render instead of after a second
// request (issue 54 item 19). It is that lookup exactly: the same cache, per-address limits,
// masked JSON and verify:log entry. It returns nil (the page then asks the API, which answers the
// miss, the limit or the outage as today) for another path, a malformed or unknown ID, a refused
// address or an outage: only a found record is embedded.
func (s *Server) embeddedPublicRecord(r *http.Request) []byte {
	profileID, ok := strings.CutPrefix(r.URL.Path, "/verify/")
	if !ok || !perfilseguro.ValidProfileID(profileID) || s.lookupLog == nil {
		return nil
	}
	ip := clientIP(r)
	if s.lookups.admit(ip) != nil {
		return nil
	}
	rec, err := s.publicRecord(r, profileID)
	if err != nil || s.lookups.hit(ip) != nil {
		return nil
	}
	now := s.now()
	entry := jobs.VerifyLogEntry{RequestID: newLookupID(), IDValidado: profileID, ScannedAt: now.UTC(), IP: ip,
		UserAgent: truncate(r.UserAgent(), 512), AccessType: jobs.AccessPublicPage,
		HTTPRequestID: requestID(r.Context()), UserID: &rec.userID, Granted: true}
	switch {
	case rec.revoked:
		entry.Reason = "revoked"
	case rec.expired(now):
		entry.Reason = "expired"
	case !rec.verified:
		entry.Reason = "not_verified"
	}
	s.lookupLog.record(entry)
	return rec.answer(now)
}

// withPublicRecord puts answer (JSON whose '<' is escaped, as encoding/json writes it) in the
// page's head as a data block: a non-executable <script type="application/json">, which the
// Content-Security-Policy does not govern.
func withPublicRecord(index, answer []byte) []byte {
	i := bytes.Index(index, []byte("</head>"))
	if i < 0 || bytes.Contains(answer, []byte("<")) {
		return index
	}
	block := slices.Concat([]byte(`<script type="application/json" id="`+publicRecordElement+`">`),
		bytes.TrimSpace(answer), []byte(`</script>`))
	return slices.Concat(index[:i], block, index[i:])
}

// gzipPage compresses a page made for one request: the default level, a few milliseconds for the
// ~160 kB index.html (its prerendered screens), where gzipBytes' best level is for files
// compressed once. Uncompressed, that page alone cost a phone on slow 4G over a second.
func gzipPage(b []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	_, _ = zw.Write(b) // writes to a bytes.Buffer do not fail
	_ = zw.Close()
	return buf.Bytes()
}
