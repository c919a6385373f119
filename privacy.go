package perfilseguro

import (
	"time"
)

// The privacy notice (aviso de privacidad). PrivacyNoticeVersion (user.go) names the version a
// person accepts; PrivacyNoticeDate is the day that version took effect. A new version makes
// Mi Perfil ask everyone to accept it again, and the biometric consent is asked again too.
const PrivacyNoticeDate = "2026-11-28"

// Consent purposes. The notice and the biometric check are primary purposes (the service needs
// them); the secondary ones hold until the person objects (oposición) and can be switched back on.
const (
	PurposePrivacyNotice        = "privacy_notice"        // the general notice, accepted at registration
	PurposeBiometric            = "biometric"             // express consent for sensitive data (LFPDPPP)
	PurposePartnerNotifications = "partner_notifications" // tell the partner the person came from when the profile changes
	PurposeReminders            = "reminders"             // expiry reminders by e-mail and WhatsApp
)

// PurposeName is a consent purpose as the notice and Mi Perfil name it (the code itself when unknown).
func PurposeName(purpose string) string {
	switch purpose {
	case PurposePrivacyNotice:
		return "Aviso de privacidad"
	case PurposeBiometric:
		return "Verificación biométrica (consentimiento expreso para datos sensibles)"
	}
	for _, p := range SecondaryPurposes {
		if p.Purpose == purpose {
			return p.Label
		}
	}
	return purpose
}

// ConsentPurposes lists every purpose in the order the person reads them.
var ConsentPurposes = []string{PurposePrivacyNotice, PurposeBiometric, PurposePartnerNotifications, PurposeReminders}

// Authority is the public authority a person may turn to about their personal data.
type Authority struct {
	Name string
	URL  string // its website, where a person files a complaint
}

// DataProtectionAuthority is the authority of the LFPDPPP of 2025 (in force since 21 March 2025):
// the Secretaría Anticorrupción y Buen Gobierno took over the extinct INAI's functions towards
// private parties. A person files with it a procedimiento de protección de derechos (our answer to
// an ARCO request, or its absence) or a denuncia (any other breach of the law).
var DataProtectionAuthority = Authority{Name: "Secretaría Anticorrupción y Buen Gobierno", URL: "https://www.gob.mx/buengobierno"}

// PrimaryPurpose is a use the service needs (finalidad necesaria): the person cannot refuse it
// and keep the service.
type PrimaryPurpose struct {
	Label       string // short name, as the simplified notice lists it
	Description string // the sentence of the full notice
}

// PrimaryPurposes are the necessary purposes, in the notice's order. The full notice and the
// simplified one (registration, invitations, a partner's verification) both read them from
// GET /api/legal.
var PrimaryPurposes = []PrimaryPurpose{
	{"Validar tu identidad", "Validamos tu identidad en tres niveles: tu teléfono con un código por WhatsApp (nivel 1), " +
		"tu correo con un enlace (nivel 2) y tu rostro e identificación oficial con un proveedor de verificación biométrica (nivel 3). " +
		"En el nivel 3 validamos lo que dice tu identificación (tu nombre, tu fecha de nacimiento y tu CURP), no lo que escribiste: " +
		"lo comparamos con tus datos de registro y revisamos que la identificación esté vigente y que seas mayor de edad."},
	{"Una identificación, un perfil", "Guardamos una huella cifrada de tu CURP (o, si tu identificación no tiene CURP, de su " +
		"número y país), un código del que no se puede obtener el dato, para que una misma identificación no valide más de un perfil."},
	{"Emitir y mantener tu Perfil Seguro", "Emitimos y mantenemos tu ID de perfil, tu código QR, tus pases de Apple Wallet y " +
		"Google Wallet y tu credencial verificable, y los actualizamos o anulamos cuando tu validación vence, se revoca o eliminas tu cuenta."},
	{"Permitir que comprueben tu validación", "Las personas con las que compartes tu QR o tu ID de perfil, y las plataformas " +
		"aliadas que autorices, pueden comprobar tu validación."},
	{"Enviarte códigos y avisos del servicio", "Te enviamos los códigos para iniciar sesión, los enlaces de verificación y " +
		"los avisos necesarios del servicio."},
	{"Integrar el expediente de una operación inmobiliaria", "Cuando una plataforma inmobiliaria lo pide porque la ley " +
		"(LFPIORPI) se lo exige, registramos la declaración que firmas (tu ocupación, tu domicilio, tu RFC, si actúas por otra " +
		"persona y quién es, y si tú o un familiar cercano desempeñan o desempeñaron un cargo público destacado), la compartimos " +
		"con esa plataforma y cotejamos tu nombre y tu fecha de nacimiento con listas de personas bloqueadas."},
	{"Cobrar tu plan", "Cobramos los planes de pago y emitimos tus comprobantes."},
	{"Proteger tu cuenta", "Cuidamos la seguridad de tu cuenta y del servicio y prevenimos fraudes y suplantación de identidad."},
	{"Atenderte", "Atendemos tus solicitudes, dudas y aclaraciones."},
	{"Cumplir la ley", "Cumplimos obligaciones legales, como las fiscales, y los requerimientos de autoridades competentes."},
}

// SecondaryPurpose describes a purpose the person may object to without losing the service
// (finalidad voluntaria).
type SecondaryPurpose struct {
	Purpose     string
	Label       string // as Mi Perfil and the notice name it
	Description string
}

// SecondaryPurposes are the uses a person can switch off in Mi Perfil › Mis datos.
var SecondaryPurposes = []SecondaryPurpose{
	{PurposePartnerNotifications, "Avisos a plataformas aliadas",
		"Avisamos a la plataforma por la que llegaste cuando tu validación cambia."},
	{PurposeReminders, "Recordatorios de vigencia",
		"Te avisamos 30 y 7 días antes de que venza tu validación."},
}

// IsSecondaryPurpose reports whether the person may object to purpose.
func IsSecondaryPurpose(purpose string) bool {
	for _, p := range SecondaryPurposes {
		if p.Purpose == purpose {
			return true
		}
	}
	return false
}

// ValidConsentPurpose reports whether purpose is one the service records.
func ValidConsentPurpose(purpose string) bool {
	for _, p := range ConsentPurposes {
		if p == purpose {
			return true
		}
	}
	return false
}

// Retention is how long one kind of data is kept; the retention job applies it and the notice
// shows it (GET /api/legal), so the two cannot disagree.
type Retention struct {
	Key    string        // stable name, used by the retention job
	Data   string        // what is kept, as the notice says it
	Period string        // how long, as the notice says it
	Keep   time.Duration // zero: as long as the account lives (deleted with it)
}

// Retention keys the retention job acts on.
const (
	RetainProviderWebhooks = "provider_webhooks"
	RetainLookupLogs       = "lookup_logs"
	RetainDataExports      = "data_exports"
	RetainDeletedConsents  = "deleted_consents"
	RetainReceipts         = "payment_receipts"
	RetainAuditTrail       = "audit_trail"
	// RetainArcoRequests: the record of each ARCO request and its answer, never the changed values (issue 54).
	RetainArcoRequests = "arco_requests"
	// RetainWalletPresentations: what a wallet disclosed to a partner (OpenID4VP, issue 28).
	RetainWalletPresentations = "wallet_presentations"
	// RetainTestSessions: a partner's test-mode verification sessions and what was shared in them (issue 36).
	RetainTestSessions = "partner_test_sessions"
	// RetainTestPeople: the accounts a partner's test key created, with all their data (issue 36).
	RetainTestPeople = "partner_test_people"
	// RetainAMLFiles: a business's LFPIORPI file about a person, 10 years from the operation, even
	// after the account is deleted (issue 53 item 6).
	RetainAMLFiles = "aml_files"
)

// Retention periods, the one table of them.
var RetentionPeriods = []Retention{
	{"account", "Tu perfil: nombre, correo, teléfono, niveles, resultado biométrico (decisión y puntajes, nunca imágenes) y los " +
		"datos que el proveedor leyó de tu identificación oficial, con la huella cifrada de tu CURP o de su número",
		"Mientras tu cuenta exista; se borra al eliminarla", 0},
	{RetainProviderWebhooks, "Avisos firmados de los proveedores (biometría y pagos), tal como llegan", "30 días", 30 * 24 * time.Hour},
	{RetainLookupLogs, "Registro de consultas a tu perfil (fecha, canal y plataforma)", "12 meses", 365 * 24 * time.Hour},
	{RetainDataExports, "Archivo con la descarga de tus datos", "24 horas o hasta que lo descargues", 24 * time.Hour},
	{RetainDeletedConsents, "Registro de tus consentimientos", "Mientras tu cuenta exista y 5 años después de eliminarla (bloqueo)", 5 * 365 * 24 * time.Hour},
	{RetainReceipts, "Comprobantes de pago (folio, monto, fecha y método)", "5 años, aun si eliminas tu cuenta (obligación fiscal)", 5 * 365 * 24 * time.Hour},
	{RetainWalletPresentations, "Lo que tu billetera digital compartió con una plataforma a petición de ella (solo los datos que aceptaste mostrar) y el aviso que le enviamos",
		"7 días", 7 * 24 * time.Hour},
	{RetainTestSessions, "Solicitudes de verificación de prueba de una plataforma (modo de prueba) y lo que compartiste en ellas",
		"30 días", 30 * 24 * time.Hour},
	{RetainTestPeople, "Cuentas de prueba creadas desde la verificación de prueba de una plataforma, con todos sus datos",
		"30 días desde que se crearon", 30 * 24 * time.Hour},
	{RetainAuditTrail, "Bitácora de seguridad: tus inicios de sesión y lo que nuestro equipo hizo en tu cuenta (quién, qué, cuándo y desde dónde)",
		"2 años", 2 * 365 * 24 * time.Hour},
	{RetainArcoRequests, "Registro de tus solicitudes ARCO: tipo, fechas y respuesta (lo que pediste, nunca el dato anterior ni el nuevo)",
		"5 años después de responderla, aun si eliminas tu cuenta", 5 * 365 * 24 * time.Hour},
	{RetainAMLFiles, "Expediente de identificación que una plataforma inmobiliaria debe integrar por la Ley Federal para la Prevención e " +
		"Identificación de Operaciones con Recursos de Procedencia Ilícita (LFPIORPI): los datos de tu identificación oficial y cómo se " +
		"verificaron, tus declaraciones firmadas, el cotejo con listas y la operación",
		"10 años desde la operación, aun si eliminas tu cuenta (LFPIORPI, art. 18, reformado el 16 de julio de 2025): bloqueado, solo lo consultan " +
			"el área de cumplimiento de esa plataforma y, si lo requiere por escrito, una autoridad facultada por la ley", 10 * 365 * 24 * time.Hour},
}

// RetentionOf returns the period kept for key (zero when the key is unknown).
func RetentionOf(key string) time.Duration {
	for _, r := range RetentionPeriods {
		if r.Key == key {
			return r.Keep
		}
	}
	return 0
}

// ARCO request types, states and channels.
const (
	ArcoAccess       = "acceso"
	ArcoRectify      = "rectificacion"
	ArcoCancel       = "cancelacion"
	ArcoOppose       = "oposicion"
	ArcoReceived     = "recibida"
	ArcoInProgress   = "en_proceso"
	ArcoDone         = "atendida"
	ArcoRejected     = "rechazada"
	ArcoChannelApp   = "app"
	ArcoChannelEmail = "correo"
)

// ArcoNames are the ARCO types, states and channels as a person reads them.
var ArcoNames = map[string]string{
	ArcoAccess: "Acceso", ArcoRectify: "Rectificación", ArcoCancel: "Cancelación", ArcoOppose: "Oposición",
	ArcoReceived: "Recibida", ArcoInProgress: "En proceso", ArcoDone: "Atendida", ArcoRejected: "Rechazada",
	ArcoChannelApp: "Mi Perfil", ArcoChannelEmail: "Correo electrónico",
}

// ArcoTypes lists the four rights.
var ArcoTypes = []string{ArcoAccess, ArcoRectify, ArcoCancel, ArcoOppose}

// ArcoAnswerDays is the legal deadline to answer an ARCO request, in business days.
const ArcoAnswerDays = 20

// ExportLinkLifetime is how long the e-mailed link to a data export works (once).
const ExportLinkLifetime = 24 * time.Hour

// ConfirmationLifetime is how long an entered confirmation code allows a sensitive action.
const ConfirmationLifetime = 5 * time.Minute

// MexicoDay is the calendar day of t in Mexico City (one export a day is counted by it).
func MexicoDay(t time.Time) time.Time {
	y, m, d := t.In(mexicoCity).Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// AddBusinessDays returns the end of the n-th business day after t, in Mexico City: weekends and
// the mandatory rest days of the Ley Federal del Trabajo (art. 74) do not count.
func AddBusinessDays(t time.Time, n int) time.Time {
	day := t.In(mexicoCity)
	for n > 0 {
		day = day.AddDate(0, 0, 1)
		if isBusinessDay(day) {
			n--
		}
	}
	y, m, d := day.Date()
	return time.Date(y, m, d, 23, 59, 59, 0, mexicoCity)
}

// BusinessDaysBetween counts the business days after from up to and including to's day (negative
// when to is earlier): how many business days are left before a deadline.
func BusinessDaysBetween(from, to time.Time) int {
	a, b := MexicoDay(from), MexicoDay(to)
	sign := 1
	if b.Before(a) {
		a, b, sign = b, a, -1
	}
	n := 0
	for d := a.AddDate(0, 0, 1); !d.After(b); d = d.AddDate(0, 0, 1) {
		if isBusinessDay(d) {
			n++
		}
	}
	return sign * n
}

func isBusinessDay(t time.Time) bool {
	if wd := t.Weekday(); wd == time.Saturday || wd == time.Sunday {
		return false
	}
	return !isRestDay(t.Year(), t.Month(), t.Day())
}

// isRestDay reports the mandatory rest days of LFT art. 74: 1 January, the first Monday of
// February, the third Monday of March, 1 May, 16 September, the third Monday of November,
// 1 October every six years from 2024 (the change of federal government) and 25 December.
func isRestDay(y int, m time.Month, d int) bool {
	switch {
	case m == time.January && d == 1, m == time.May && d == 1, m == time.September && d == 16,
		m == time.December && d == 25:
		return true
	case m == time.October && d == 1:
		return (y-2024)%6 == 0
	case m == time.February:
		return d == nthMonday(y, m, 1)
	case m == time.March, m == time.November:
		return d == nthMonday(y, m, 3)
	}
	return false
}

func nthMonday(y int, m time.Month, n int) int {
	first := time.Date(y, m, 1, 0, 0, 0, 0, time.UTC)
	offset := (int(time.Monday) - int(first.Weekday()) + 7) % 7
	return 1 + offset + 7*(n-1)
}
