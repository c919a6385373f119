package api

import (
	"crypto/subtle"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/perfilseguro/perfilseguro/postgres"
	"github.com/perfilseguro/perfilseguro/secure"
)

// The PassKit web service (Apple's "Adding a Web Service to Update Passes") under the passes'
// webServiceURL, PUBLIC_BASE_URL/api/passkit. Devices call it without cookies: a pass's own
// calls carry "Authorization: ApplePass <authenticationToken>"; the list of updated serial
// numbers is keyed by the device library identifier, the device's own secret.
const passkitPrefix = "/api/passkit/v1"

// maxPushToken bounds what a device may register (APNs tokens are 64 hex characters today).
const maxPushToken = 256

func (s *Server) mountPassKit() {
	const tag = "Pases"
	reg := passkitPrefix + "/devices/{device}/registrations/{passType}"
	device := pathParam("device", "deviceLibraryIdentifier del dispositivo", "")
	passType := pathParam("passType", "passTypeIdentifier del pase", "")
	serial := pathParam("serial", "Número de serie del pase (el ID de perfil)", "")
	auth := headerParam("Authorization", "ApplePass <authenticationToken del pase>", true)
	unauthorized := errorAnswer("401", "Pase no autorizado")
	unknown := errorAnswer("404", "Tipo de pase desconocido")
	s.handle("POST "+reg+"/{serial}", http.HandlerFunc(s.passkitRegister),
		op(tag, "PassKit: registrar un dispositivo para recibir actualizaciones del pase", params(device, passType, serial, auth),
			empty("201", "Registro nuevo"), empty("200", "El dispositivo ya estaba registrado"),
			errorAnswer("400", "Registro de dispositivo no válido"), unauthorized, unknown))
	s.handle("DELETE "+reg+"/{serial}", http.HandlerFunc(s.passkitUnregister),
		op(tag, "PassKit: dejar de recibir actualizaciones", params(device, passType, serial, auth),
			empty("200", "Registro eliminado"), unauthorized, unknown))
	s.handle("GET "+reg, http.HandlerFunc(s.passkitUpdatedSerials),
		op(tag, "PassKit: números de serie actualizados desde una marca", params(device, passType,
			queryParam("passesUpdatedSince", "Marca lastUpdated de la consulta anterior", false)),
			jsonOf("200", "Pases actualizados", SerialNumbersJSON{}), empty("204", "Nada cambió"),
			errorAnswer("400", "passesUpdatedSince no válido"), unknown))
	s.handle("GET "+passkitPrefix+"/passes/{passType}/{serial}", http.HandlerFunc(s.passkitLatestPass),
		op(tag, "PassKit: la versión más reciente del pase", params(passType, serial, auth,
			headerParam("If-Modified-Since", "Fecha del pase que tiene el dispositivo", false)),
			binary("200", "Archivo .pkpass (con Last-Modified)", "application/vnd.apple.pkpass"),
			empty("304", "El dispositivo tiene la versión más reciente"), unauthorized, unknown))
	s.handle("POST "+passkitPrefix+"/log", http.HandlerFunc(s.passkitLog),
		op(tag, "PassKit: mensajes de diagnóstico de los dispositivos", nil, empty("200", "Recibidos"),
			errorAnswer("400", "Cuerpo no válido")))
}

var (
	errPassKitUnauthorized = httpError(http.StatusUnauthorized, "Pase no autorizado.")
	errPassKitUnknownType  = httpError(http.StatusNotFound, "Tipo de pase desconocido.")
)

// passkitPass checks the pass type and the pass's token and returns the pass.
func (s *Server) passkitPass(r *http.Request) (postgres.ApplePassBySerial, error) {
	if r.PathValue("passType") != s.cfg.Apple.PassTypeID {
		return postgres.ApplePassBySerial{}, errPassKitUnknownType
	}
	token, ok := strings.CutPrefix(r.Header.Get("Authorization"), "ApplePass ")
	if !ok || token == "" {
		return postgres.ApplePassBySerial{}, errPassKitUnauthorized
	}
	pass, err := s.store.ApplePassBySerial(r.Context(), r.PathValue("serial"))
	if errors.Is(err, postgres.ErrPassNotFound) {
		return pass, errPassKitUnauthorized // no difference between an unknown pass and a wrong token
	}
	if err != nil {
		return pass, err
	}
	if subtle.ConstantTimeCompare([]byte(secure.HashToken(token)), []byte(pass.TokenHash)) != 1 {
		return pass, errPassKitUnauthorized
	}
	return pass, nil
}

// passkitRegister: POST …/devices/{device}/registrations/{passType}/{serial} with {"pushToken"}:
// 201 for a new registration, 200 when the device had it already.
func (s *Server) passkitRegister(w http.ResponseWriter, r *http.Request) {
	if _, err := s.passkitPass(r); err != nil {
		writeError(w, r, err)
		return
	}
	req, err := decodeJSON[struct {
		PushToken string `json:"pushToken"`
	}](r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	device := r.PathValue("device")
	if req.PushToken == "" || len(req.PushToken) > maxPushToken || device == "" || len(device) > 128 {
		writeError(w, r, httpError(http.StatusBadRequest, "Registro de dispositivo no válido."))
		return
	}
	created, err := s.store.RegisterPassDevice(r.Context(), device, r.PathValue("passType"), r.PathValue("serial"), req.PushToken)
	if err != nil {
		writeError(w, r, err)
		return
	}
	if created {
		w.WriteHeader(http.StatusCreated)
		return
	}
	w.WriteHeader(http.StatusOK)
}

// passkitUnregister: DELETE …/devices/{device}/registrations/{passType}/{serial}.
func (s *Server) passkitUnregister(w http.ResponseWriter, r *http.Request) {
	if _, err := s.passkitPass(r); err != nil {
		writeError(w, r, err)
		return
	}
	if err := s.store.UnregisterPassDevice(r.Context(), r.PathValue("device"), r.PathValue("passType"), r.PathValue("serial")); err != nil {
		writeError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusOK)
}

// SerialNumbersJSON is Apple's SerialNumbers object.
type SerialNumbersJSON struct {
	SerialNumbers []string `json:"serialNumbers"`
	LastUpdated   string   `json:"lastUpdated"` // a tag the device sends back as passesUpdatedSince
}

// passkitUpdatedSerials: GET …/devices/{device}/registrations/{passType}?passesUpdatedSince=tag:
// the device's passes rebuilt after the tag (microseconds since 1970), or 204 when none.
func (s *Server) passkitUpdatedSerials(w http.ResponseWriter, r *http.Request) {
	if r.PathValue("passType") != s.cfg.Apple.PassTypeID {
		writeError(w, r, errPassKitUnknownType)
		return
	}
	var since time.Time
	if tag := r.URL.Query().Get("passesUpdatedSince"); tag != "" {
		micros, err := strconv.ParseInt(tag, 10, 64)
		if err != nil || micros < 0 {
			writeError(w, r, httpError(http.StatusBadRequest, "passesUpdatedSince no válido."))
			return
		}
		since = time.UnixMicro(micros)
	}
	serials, last, err := s.store.UpdatedPassesOfDevice(r.Context(), r.PathValue("device"), r.PathValue("passType"), since)
	if err != nil {
		writeError(w, r, err)
		return
	}
	if len(serials) == 0 {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	writeSizedJSON(w, r, SerialNumbersJSON{SerialNumbers: serials, LastUpdated: strconv.FormatInt(last.UnixMicro(), 10)})
}

// passkitLatestPass: GET …/passes/{passType}/{serial}: the latest build, with Last-Modified,
// and 304 when the device's copy (If-Modified-Since) is as new.
func (s *Server) passkitLatestPass(w http.ResponseWriter, r *http.Request) {
	pass, err := s.passkitPass(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	if pass.Content == nil || pass.BuiltAt == nil {
		writeError(w, r, httpError(http.StatusNotFound, msgPassBuilding))
		return
	}
	modified := pass.BuiltAt.UTC().Truncate(time.Second)
	if since, err := http.ParseTime(r.Header.Get("If-Modified-Since")); err == nil && !modified.After(since) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "application/vnd.apple.pkpass")
	h.Set("Last-Modified", modified.Format(http.TimeFormat))
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Length", strconv.Itoa(len(pass.Content)))
	w.Write(pass.Content)
}

// passkitLog: POST …/log with {"logs": [...]}: what devices report about our web service.
func (s *Server) passkitLog(w http.ResponseWriter, r *http.Request) {
	req, err := decodeJSON[struct {
		Logs []string `json:"logs"`
	}](r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	for i, line := range req.Logs {
		if i == 20 {
			break // a device's log is advice, not a place to store megabytes
		}
		s.logger.WarnContext(r.Context(), "passkit device log", "message", truncate(line, 500), "request_id", requestID(r.Context()))
	}
	w.WriteHeader(http.StatusOK)
}
