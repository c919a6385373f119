package worker

import (
	"encoding/json"
	"fmt"
	"html/template"
	"math"
	"slices"
	"sort"
	"strings"
	"time"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/jobs"
)

// The readable side of the data export (right of access): resumen.html says in Spanish what
// datos.json holds, grouped as the privacy notice groups the data, with every code in words and
// every date in Mexico City time; diccionario.json describes each key of datos.json. Both come
// from exportSections, so a key that gains a label gains its description too.

// exportField is one key of a datos.json record.
type exportField struct {
	Key         string
	Label       string // the summary's name for it
	Description string // diccionario.json; shown under the value too when Explain is set
	Explain     bool   // the label alone does not say what the value measures (the scores)
	// Codes names each stored code in words (nil: the value is shown as it is).
	Codes map[string]string
	// Format writes the value when words need more than Codes (nil: Codes, then the default).
	Format func(v any, rec map[string]any) string
}

// exportSection is one key of datos.json's "datos": a record (perfil) or a list of records.
type exportSection struct {
	Key         string
	Title       string
	Description string
	Fields      []exportField
}

// exportGroup is a heading of resumen.html: the notice's groups of data ("Datos personales que
// tratamos"), then the consents and requests the notice's later sections speak of.
type exportGroup struct {
	Title string
	Parts []exportPart
}

// exportPart shows one section, or some of its fields (the profile is split in two groups).
type exportPart struct {
	Section     string
	Title       string   // "": the section's title
	Description string   // "": the section's description
	Fields      []string // nil: every field of the section
}

var (
	yesNo = map[string]string{"true": "Sí", "false": "No"}
	// paymentStatusNames: as the administrators' panel names them (user-payments.tsx).
	paymentStatusNames = map[string]string{
		"creating": "Creando", "open": "En proceso", "pending": "Pendiente (OXXO)", "paid": "Pagado",
		"failed": "Ficha vencida", "expired": "Sesión vencida", "cancelled": "Reemplazado",
		"start_failed": "No se pudo iniciar", "refunded": "Reembolsado",
	}
	// paymentMethodNames: as Mi Perfil names them (lib/plans.ts).
	paymentMethodNames = map[string]string{"card": "Tarjeta", "oxxo": "Efectivo en OXXO"}
	// invitation names: as the Invitaciones page names them (invitations/components/format.ts).
	invitationTypeNames   = map[string]string{"client": "Cliente", "broker": "Broker"}
	invitationStatusNames = map[string]string{"pending": "Pendiente", "accepted": "Aceptada", "expired": "Expirada", "cancelled": "Cancelada"}
	passNames             = map[string]string{"apple": "Apple Wallet", "google": "Google Wallet"}
	messageChannelNames   = map[string]string{"email": "Correo electrónico", "whatsapp": "WhatsApp", "sms": "SMS"}
	providerNames         = map[string]string{"didit": "Didit (proveedor de verificación biométrica)", "devsim": "Simulador de pruebas (sin verificación real)"}
	environmentNames      = map[string]string{"production": "Servicio real", "development": "Desarrollo (simulado)", "test": "Pruebas"}
	originNames           = map[string]string{
		perfilseguro.OriginInvitation: "Invitación de otra persona",
		"CasaLista":                   "CasaLista", "VentaDirecta": "VentaDirecta", "Broker": "Broker", "Otro": "Otro",
	}
	// lookupNames: what the public page showed (verification_logs.reason; empty: a valid profile).
	lookupNames = map[string]string{"": "Perfil validado", "revoked": "Perfil revocado", "expired": "Validación vencida",
		"not_verified": "Perfil sin validación biométrica"}
	// The identity document (issue 52): its type, sex, country and the verdict on it in words.
	documentTypeNames = map[string]string{perfilseguro.DocumentINE: "Credencial para votar (INE)", perfilseguro.DocumentPassport: "Pasaporte",
		perfilseguro.DocumentDrivingLicence: "Licencia de conducir", perfilseguro.DocumentResidencePermit: "Tarjeta de residente"}
	sexNames             = map[string]string{"F": "Mujer", "M": "Hombre"}
	countryNames         = map[string]string{"MEX": "México", "USA": "Estados Unidos", "CAN": "Canadá", "ESP": "España", "GTM": "Guatemala", "COL": "Colombia"}
	nationalityNames     = map[string]string{"MEX": "Mexicana", "USA": "Estadounidense", "CAN": "Canadiense", "ESP": "Española", "GTM": "Guatemalteca", "COL": "Colombiana"}
	nameSourceNames      = map[string]string{"typed": "Lo escribiste al registrarte", "document": "Tu identificación oficial"}
	identityVerdictNames = map[string]string{
		"match": "Coincide con tu registro", "near": "Diferencia pequeña: la revisa nuestro equipo",
		"no_document": "Sin datos del documento", "mismatch": "No coincide con el nombre de tu registro",
		"duplicate": "Ya valida otro perfil", "expired_document": "Identificación vencida", "under_age": "Menor de edad",
	}
	levelNames = map[string]string{"0": "Nivel 0 (sin verificar)", "1": "Nivel 1 (teléfono verificado)",
		"2": "Nivel 2 (correo verificado)", "3": "Nivel 3 (verificación biométrica)"}
)

func planNames() map[string]string {
	m := map[string]string{}
	for _, p := range perfilseguro.Plans {
		m[p.Code] = p.Name
	}
	return m
}

func purposeNames() map[string]string {
	m := map[string]string{}
	for _, p := range perfilseguro.ConsentPurposes {
		m[p] = perfilseguro.PurposeName(p)
	}
	return m
}

func arcoNames(codes ...string) map[string]string {
	m := map[string]string{}
	for _, c := range codes {
		m[c] = perfilseguro.ArcoNames[c]
	}
	return m
}

// Field helpers: the common kinds of key.
// invitationType and invitationStatus describe an invitation the person sent or accepted alike.
var (
	invitationType   = exportField{Key: "tipo", Label: "Tipo", Description: "client (cliente) o broker.", Codes: invitationTypeNames}
	invitationStatus = exportField{Key: "estado", Label: "Estado", Description: "pending, accepted, expired o cancelled.", Codes: invitationStatusNames}
)

func when(key, label, description string) exportField {
	return exportField{Key: key, Label: label, Description: description + " Fecha y hora con su zona horaria (ISO 8601)."}
}

func flag(key, label, description string) exportField {
	return exportField{Key: key, Label: label, Description: description + " true o false.", Codes: yesNo}
}

func score(key, label, measures string) exportField {
	return exportField{Key: key, Label: label, Explain: true, Description: measures + ", de 0 a 100.",
		Format: func(v any, _ map[string]any) string {
			if f, ok := v.(float64); ok {
				return number(f) + " de 100"
			}
			return "—"
		}}
}

// day writes a date the tables hold without a time (YYYY-MM-DD) as Mexico writes it; it is a
// calendar day, never moved by a time zone.
func day(key, label, description string) exportField {
	return exportField{Key: key, Label: label, Description: description + " Fecha (AAAA-MM-DD).", Format: func(v any, _ map[string]any) string {
		s, _ := v.(string)
		t, err := time.Parse(time.DateOnly, s)
		if err != nil {
			return cellText(v)
		}
		return t.Format("02/01/2006")
	}}
}

func years(v any, _ map[string]any) string {
	if f, ok := v.(float64); ok {
		return perfilseguro.YearsText(int(f))
	}
	return "—"
}

// exportSections lists every section and key of datos.json, in reading order.
var exportSections = []exportSection{
	{"perfil", "Tu perfil", "Tus datos de identificación y contacto y el estado de tu validación.", []exportField{
		{Key: "id_perfil", Label: "ID de perfil", Description: "Tu ID de Perfil Seguro (PS-0000-0000-00)."},
		{Key: "nombre", Label: "Nombre completo", Description: "Tu nombre completo."},
		{Key: "email", Label: "Correo electrónico", Description: "Tu correo electrónico."},
		{Key: "telefono", Label: "Teléfono (WhatsApp)", Description: "Tu teléfono celular, con la lada +52."},
		flag("telefono_verificado", "Teléfono verificado", "Si comprobaste tu teléfono con un código."),
		flag("correo_verificado", "Correo verificado", "Si comprobaste tu correo con un enlace."),
		{Key: "origen", Label: "Cómo llegaste", Description: "Por dónde llegaste: CasaLista, VentaDirecta, Broker, Otro o invitación.", Codes: originNames},
		{Key: "invitado_por", Label: "Te invitó", Description: "El nombre de quien te invitó, si llegaste por una invitación."},
		{Key: "plataforma_de_origen", Label: "Plataforma aliada de la que llegaste", Description: "La plataforma aliada por la que te registraste, si fue así."},
		{Key: "nivel_verificacion", Label: "Nivel de verificación", Description: "0 sin verificar, 1 teléfono, 2 correo, 3 verificación biométrica.", Codes: levelNames},
		flag("biometria_verificada", "Verificación biométrica aprobada", "Si tu verificación biométrica vigente fue aprobada."),
		when("fecha_validacion", "Fecha de validación", "Cuándo se aprobó tu verificación biométrica."),
		{Key: "vigencia_anos", Label: "Vigencia", Description: "Cuántos años dura tu validación desde la fecha de validación.", Format: years},
		{Key: "plan", Label: "Plan", Description: "Tu plan: free (gratuito), one_year (1 año) o five_years (5 años).", Codes: planNames()},
		when("revocado_en", "Revocado el", "Cuándo nuestro equipo revocó tu perfil, si lo hizo."),
		{Key: "motivo_revocacion", Label: "Motivo de la revocación", Description: "Por qué se revocó tu perfil."},
		when("vencido_en", "Venció el", "Cuándo venció tu validación, si venció."),
		{Key: "nombre_tomado_de", Label: "De dónde viene tu nombre", Description: "typed (lo escribiste al registrarte) o document " +
			"(lo tomamos de tu identificación oficial al validarte).", Codes: nameSourceNames},
		day("identificacion_vigente_hasta", "Tu identificación vence el", "La vigencia de la identificación que valida tu perfil: tu validación termina, a más tardar, ese día."),
		when("creado_en", "Cuenta creada el", "Cuándo creaste tu cuenta."),
		when("actualizado_en", "Última actualización", "La última vez que cambió tu perfil."),
	}},
	{"consentimientos", "Tus consentimientos", "Cada vez que aceptaste o retiraste un consentimiento.", []exportField{
		{Key: "finalidad", Label: "Para qué", Description: "La finalidad: privacy_notice (aviso de privacidad), biometric (verificación biométrica), " +
			"partner_notifications y reminders (finalidades voluntarias).", Codes: purposeNames()},
		{Key: "otorgado", Label: "Lo diste", Description: "true si lo diste, false si lo retiraste.", Codes: map[string]string{"true": "Sí", "false": "No, lo retiraste"}},
		{Key: "version_aviso", Label: "Versión del aviso", Description: "La versión del aviso de privacidad vigente en ese momento."},
		when("fecha", "Fecha", "Cuándo lo diste o lo retiraste."),
		{Key: "ip", Label: "Dirección IP", Description: "La dirección IP desde la que lo hiciste."},
		{Key: "navegador", Label: "Navegador", Description: "El navegador (user agent) con el que lo hiciste."},
	}},
	{"verificaciones_biometricas", "Verificaciones biométricas", "Cada verificación biométrica: el resultado y los puntajes; nunca guardamos imágenes.", []exportField{
		{Key: "proveedor", Label: "Proveedor", Description: "Quién hizo la verificación: didit o devsim (simulador de pruebas).", Codes: providerNames},
		{Key: "sesion", Label: "Número de sesión del proveedor", Description: "El identificador de la verificación en el proveedor."},
		{Key: "estado", Label: "Resultado", Description: "El estado que informó el proveedor (Approved, Declined, In Review…).", Codes: perfilseguro.BiometricStatusNames},
		score("puntaje_general", "Puntaje general", "Qué tan confiable resultó la verificación completa"),
		score("puntaje_rostro", "Coincidencia facial", "Cuánto se parece tu rostro a la foto de tu identificación"),
		score("puntaje_documento", "Autenticidad del documento", "Qué tan auténtica parece tu identificación oficial"),
		score("puntaje_vida", "Prueba de vida", "Qué tan seguro es que eras una persona real frente a la cámara, no una foto ni un video"),
		{Key: "ambiente", Label: "Entorno", Description: "production (servicio real), development o test (simulados).", Codes: environmentNames},
		when("creada_en", "Iniciada el", "Cuándo empezó la verificación."),
		when("terminada_en", "Terminada el", "Cuándo llegó el resultado."),
	}},
	{"documentos_de_identidad", "Datos de tu identificación oficial", "Lo que el proveedor de verificación leyó de tu identificación " +
		"en cada verificación: guardamos el número, la CURP y el domicilio cifrados, y aquí te los mostramos completos; nunca guardamos su imagen.", []exportField{
		{Key: "sesion", Label: "Verificación", Description: "El número de sesión del proveedor de la verificación que la leyó (como en Verificaciones biométricas)."},
		{Key: "tipo", Label: "Tipo de identificación", Description: "ine (credencial para votar), passport (pasaporte), driving_licence o residence_permit.", Codes: documentTypeNames},
		{Key: "pais_emisor", Label: "País que la emitió", Description: "El país que la emitió (código ISO de tres letras: MEX).", Codes: countryNames},
		{Key: "estado_emisor", Label: "Estado", Description: "El estado o la región que aparece en ella, si el proveedor lo leyó."},
		{Key: "nombres", Label: "Nombre(s)", Description: "Tus nombres, como aparecen en ella."},
		{Key: "primer_apellido", Label: "Primer apellido", Description: "Tu primer apellido, como aparece en ella."},
		{Key: "segundo_apellido", Label: "Segundo apellido", Description: "Tu segundo apellido, si lo tiene."},
		{Key: "nombre_completo", Label: "Nombre completo", Description: "Tu nombre completo, como aparece en ella."},
		day("fecha_nacimiento", "Fecha de nacimiento", "Tu fecha de nacimiento."),
		{Key: "sexo", Label: "Sexo", Description: "F (mujer) o M (hombre), como aparece en ella.", Codes: sexNames},
		{Key: "nacionalidad", Label: "Nacionalidad", Description: "Tu nacionalidad (código ISO de tres letras: MEX).", Codes: nationalityNames},
		day("expedida_el", "Expedida el", "Cuándo se expidió."),
		day("vigente_hasta", "Vigente hasta", "Hasta cuándo es válida."),
		{Key: "numero", Label: "Número de la identificación", Description: "Su número (en la INE, el CIC). Lo guardamos cifrado."},
		{Key: "curp", Label: "CURP", Description: "Tu CURP, como aparece en ella. La guardamos cifrada."},
		{Key: "domicilio", Label: "Domicilio", Description: "El domicilio que aparece en ella, si lo tiene. Lo guardamos cifrado."},
		flag("huella_guardada", "Huella para «una identificación, un perfil»", "Si guardamos la huella cifrada de tu CURP (o del "+
			"número): un código del que no se puede obtener el dato, que solo sirve para que esa identificación no valide otro perfil."),
		{Key: "resultado", Label: "Resultado de la comparación", Description: "match (coincide con tu registro), near (diferencia pequeña, " +
			"en revisión), no_document, mismatch (no coincide), duplicate (ya valida otro perfil), expired_document (vencida) o under_age (menor de edad).",
			Codes: identityVerdictNames},
		flag("certifica_tu_perfil", "Valida tu perfil", "Si es la identificación con la que validamos tu perfil (tu nombre viene de ella)."),
		when("leido_en", "Leída el", "Cuándo recibimos estos datos del proveedor."),
	}},
	{"pagos", "Pagos", "Tus pagos (folio, monto, fecha y método); nunca el número de tu tarjeta.", []exportField{
		{Key: "folio", Label: "Folio", Description: "El número de tu comprobante."},
		{Key: "plan", Label: "Plan", Description: "El plan pagado: one_year (1 año) o five_years (5 años).", Codes: planNames()},
		{Key: "anos", Label: "Años de vigencia", Description: "Cuántos años de validación pagaste.", Format: years},
		{Key: "monto", Label: "Monto", Description: "Lo que pagaste, en pesos.", Format: func(v any, rec map[string]any) string {
			f, ok := v.(float64)
			if !ok {
				return "—"
			}
			if c, _ := rec["moneda"].(string); c != "" && c != "MXN" {
				return number(f) + " " + c
			}
			return perfilseguro.FormatPesos(int64(math.Round(f * 100)))
		}},
		{Key: "moneda", Label: "Moneda", Description: "La moneda del pago (MXN).", Codes: map[string]string{"MXN": "Pesos mexicanos"}},
		{Key: "metodo", Label: "Método", Description: "card (tarjeta) u oxxo (efectivo en OXXO).", Codes: paymentMethodNames},
		{Key: "estado", Label: "Estado", Description: "El estado del pago (paid: pagado, pending: ficha OXXO por pagar, refunded: reembolsado…).", Codes: paymentStatusNames},
		{Key: "referencia_oxxo", Label: "Referencia OXXO", Description: "La referencia de tu ficha de pago en OXXO."},
		when("pagado_en", "Pagado el", "Cuándo se recibió el pago."),
		when("reembolsado_en", "Reembolsado el", "Cuándo se te devolvió, si se hizo."),
		when("creado_en", "Iniciado el", "Cuándo empezaste el pago."),
	}},
	{"invitaciones_enviadas", "Invitaciones que enviaste", "Las personas que invitaste y los datos que nos diste de ellas.", []exportField{
		{Key: "nombre", Label: "Nombre", Description: "El nombre de la persona invitada."},
		{Key: "correo", Label: "Correo", Description: "Su correo electrónico."},
		{Key: "telefono", Label: "Teléfono", Description: "Su teléfono."},
		invitationType, invitationStatus,
		{Key: "empresa", Label: "Empresa", Description: "La empresa que indicaste."},
		{Key: "mensaje", Label: "Mensaje", Description: "Tu mensaje personal."},
		when("vence", "Vence el", "Hasta cuándo se puede aceptar."),
		when("aceptada_en", "Aceptada el", "Cuándo la aceptó."),
		when("creada_en", "Enviada el", "Cuándo la enviaste."),
	}},
	{"invitaciones_recibidas", "Invitaciones que aceptaste", "Las invitaciones con las que llegaste.", []exportField{
		{Key: "de", Label: "De", Description: "Quién te invitó."},
		invitationType, invitationStatus,
		when("aceptada_en", "Aceptada el", "Cuándo la aceptaste."),
		when("creada_en", "Enviada el", "Cuándo te la enviaron."),
	}},
	{"pases", "Pases de Wallet", "Los pases que emitimos para tu teléfono.", []exportField{
		{Key: "tipo", Label: "Pase", Description: "apple (Apple Wallet) o google (Google Wallet).", Codes: passNames},
		when("generado_en", "Generado el", "Cuándo se generó la versión actual del pase."),
	}},
	{"credenciales", "Credenciales verificables", "Las credenciales digitales (SD-JWT) que emitimos a tu billetera.", []exportField{
		{Key: "numero", Label: "Número", Description: "El número de la credencial."},
		when("emitida_en", "Emitida el", "Cuándo se emitió."),
		when("vence", "Vence el", "Hasta cuándo es válida."),
		when("revocada_en", "Revocada el", "Cuándo dejó de valer, si fue así."),
		flag("ligada_a_tu_llave", "Ligada a tu dispositivo", "Si la credencial está ligada a una llave de tu billetera."),
		when("creada_en", "Pedida el", "Cuándo se pidió."),
	}},
	{"consultas_a_tu_perfil", "Consultas a tu perfil", "Cuándo y por dónde consultaron tu perfil; nunca quién ni su dirección.", []exportField{
		when("fecha", "Fecha", "Cuándo se consultó."),
		{Key: "canal", Label: "Canal", Description: "public_page (página pública o QR) o partner_api (una plataforma aliada).", Format: func(v any, rec map[string]any) string {
			// As Mi Perfil › Consultas a tu perfil names it.
			if v == jobs.AccessPublicPage {
				return "Página pública / QR"
			}
			if p, _ := rec["plataforma"].(string); p != "" {
				return "API de " + p
			}
			return "Plataforma aliada"
		}, Codes: map[string]string{jobs.AccessPublicPage: "Página pública / QR", jobs.AccessPartnerAPI: "Plataforma aliada"}},
		{Key: "plataforma", Label: "Plataforma", Description: "La plataforma aliada que consultó, si fue una."},
		{Key: "resultado", Label: "Lo que se mostró", Description: "null (perfil validado), revoked, expired o not_verified.", Codes: lookupNames},
	}},
	{"sesiones", "Inicios de sesión", "Tus sesiones en Perfil Seguro.", []exportField{
		when("iniciada_en", "Iniciada el", "Cuándo iniciaste sesión."),
		when("vence", "Vence el", "Cuándo termina sola."),
		when("cerrada_en", "Cerrada el", "Cuándo la cerraste, si lo hiciste."),
		{Key: "ip", Label: "Dirección IP", Description: "La dirección IP desde la que iniciaste sesión."},
		{Key: "navegador", Label: "Navegador", Description: "El navegador (user agent) que usaste."},
	}},
	{"solicitudes_arco", "Tus solicitudes de derechos ARCO", "Tus solicitudes de acceso, rectificación, cancelación u oposición.", []exportField{
		{Key: "tipo", Label: "Derecho", Description: "acceso, rectificacion, cancelacion u oposicion.",
			Codes: arcoNames(perfilseguro.ArcoAccess, perfilseguro.ArcoRectify, perfilseguro.ArcoCancel, perfilseguro.ArcoOppose)},
		{Key: "estado", Label: "Estado", Description: "recibida, en_proceso, atendida o rechazada.",
			Codes: arcoNames(perfilseguro.ArcoReceived, perfilseguro.ArcoInProgress, perfilseguro.ArcoDone, perfilseguro.ArcoRejected)},
		{Key: "canal", Label: "Por dónde", Description: "app (Mi Perfil) o correo.", Codes: arcoNames(perfilseguro.ArcoChannelApp, perfilseguro.ArcoChannelEmail)},
		when("recibida_en", "Recibida el", "Cuándo la recibimos."),
		when("fecha_limite", "Fecha límite", "Hasta cuándo tenemos para responder (20 días hábiles)."),
		when("respondida_en", "Respondida el", "Cuándo la respondimos."),
	}},
	{"recordatorios", "Recordatorios enviados", "Los recordatorios de vigencia que te enviamos.", []exportField{
		{Key: "dias_antes", Label: "Días antes del vencimiento", Description: "Cuántos días antes de vencer tu validación se envió.", Format: func(v any, _ map[string]any) string {
			if f, ok := v.(float64); ok {
				return number(f) + " días"
			}
			return "—"
		}},
		{Key: "canal", Label: "Canal", Description: "email (correo) o whatsapp.", Codes: messageChannelNames},
		when("enviado_en", "Enviado el", "Cuándo se envió."),
	}},
	{"declaraciones_lfpiorpi", "Tus declaraciones para operaciones inmobiliarias (LFPIORPI)",
		"Cada versión que firmaste de lo que declaraste a una plataforma inmobiliaria (conocimiento del cliente, Ley Federal para la " +
			"Prevención e Identificación de Operaciones con Recursos de Procedencia Ilícita), tus respuestas y a quién se compartió.", []exportField{
			{Key: "version", Label: "Versión", Description: "1 la primera; una corrección es una versión nueva."},
			flag("de_prueba", "De prueba", "Si se firmó en el modo de prueba de una plataforma."),
			when("firmada_el", "Firmada el", "Cuándo la firmaste."),
			{Key: "firmada_con", Label: "Firmada con", Description: "Cómo la firmaste: llave de acceso o código de un solo uso."},
			{Key: "huella_del_texto", Label: "Huella del texto", Description: "SHA-256 del texto exacto que firmaste."},
			{Key: "ocupacion", Label: "Ocupación o actividad", Description: "Tu ocupación o actividad económica."},
			{Key: "domicilio", Label: "Domicilio", Description: "El domicilio que declaraste."},
			{Key: "rfc", Label: "RFC", Description: "Tu Registro Federal de Contribuyentes."},
			{Key: "nacionalidad", Label: "Nacionalidad", Description: "Tu nacionalidad (código de 3 letras)."},
			{Key: "actua_por_un_tercero", Label: "Actúas por cuenta de alguien más", Description: "Sí o No."},
			{Key: "beneficiario_nombre", Label: "Beneficiario controlador", Description: "Por quién actúas, si es el caso."},
			{Key: "beneficiario_fecha_nacimiento", Label: "Su fecha de nacimiento", Description: "AAAA-MM-DD."},
			{Key: "beneficiario_curp_o_rfc", Label: "Su CURP o RFC", Description: "Como lo declaraste."},
			{Key: "beneficiario_relacion", Label: "Su relación contigo", Description: "Como la declaraste."},
			{Key: "persona_politicamente_expuesta", Label: "Persona políticamente expuesta", Description: "Sí si tú o un familiar cercano tiene o tuvo un cargo público destacado."},
			{Key: "cargo_publico", Label: "Cargo", Description: "El cargo, si lo declaraste."},
			{Key: "compartida_con", Label: "Compartida con", Description: "Las plataformas que recibieron esta versión."},
		}},
	{"llaves_de_acceso", "Llaves de acceso", "Tus llaves de acceso: solo su nombre y fechas; la llave nunca sale de tu dispositivo.", []exportField{
		{Key: "nombre", Label: "Nombre", Description: "El nombre que le diste."},
		flag("sincronizada", "Sincronizada", "Si tu dispositivo la respalda en la nube."),
		when("creada_en", "Creada el", "Cuándo la agregaste."),
		when("ultimo_uso", "Último uso", "La última vez que la usaste."),
	}},
}

// exportGroups lay the summary out as the notice groups the data.
var exportGroups = []exportGroup{
	{"Identificación y contacto", []exportPart{
		{Section: "perfil", Title: "Tus datos", Description: "Quién eres y cómo te contactamos.", Fields: []string{"id_perfil", "nombre", "email", "telefono", "telefono_verificado",
			"correo_verificado", "origen", "invitado_por", "plataforma_de_origen", "creado_en", "actualizado_en"}},
		{Section: "invitaciones_recibidas"},
		{Section: "invitaciones_enviadas"},
	}},
	{"Resultados de la verificación biométrica (datos personales sensibles)", []exportPart{{Section: "verificaciones_biometricas"}}},
	{"Datos de tu identificación oficial", []exportPart{{Section: "documentos_de_identidad", Title: "Lo que leímos de tu identificación"}}},
	{"Tu validación y tus documentos digitales", []exportPart{
		{Section: "perfil", Title: "Tu validación", Description: "Tu nivel, tu vigencia y tu plan.", Fields: []string{"nivel_verificacion", "biometria_verificada", "fecha_validacion",
			"vigencia_anos", "identificacion_vigente_hasta", "nombre_tomado_de", "plan", "vencido_en", "revocado_en", "motivo_revocacion"}},
		{Section: "pases"},
		{Section: "credenciales"},
		{Section: "recordatorios"},
	}},
	{"Pagos", []exportPart{{Section: "pagos"}}},
	{"Datos técnicos", []exportPart{{Section: "consultas_a_tu_perfil"}, {Section: "sesiones"}, {Section: "llaves_de_acceso"}}},
	{"Tus consentimientos y solicitudes", []exportPart{{Section: "consentimientos"}, {Section: "solicitudes_arco"}}},
	{"Tus declaraciones LFPIORPI", []exportPart{{Section: "declaraciones_lfpiorpi"}}},
}

// exportTopKeys describes the keys around "datos".
var exportTopKeys = map[string]string{
	"generado_en":         "Cuándo se generó este archivo, en UTC (ISO 8601).",
	"aviso_de_privacidad": "La versión del aviso de privacidad vigente al generarlo.",
	"datos":               "Todo lo que tenemos sobre ti, por sección.",
}

// sectionByKey finds the section of a key of datos.json.
func sectionByKey(key string) (exportSection, bool) {
	i := slices.IndexFunc(exportSections, func(s exportSection) bool { return s.Key == key })
	if i < 0 {
		return exportSection{}, false
	}
	return exportSections[i], true
}

// known reports whether the section describes key.
func (s exportSection) known(key string) bool {
	return slices.ContainsFunc(s.Fields, func(f exportField) bool { return f.Key == key })
}

// field describes one key of the section's records.
func (s exportSection) field(key string) exportField {
	if i := slices.IndexFunc(s.Fields, func(f exportField) bool { return f.Key == key }); i >= 0 {
		return s.Fields[i]
	}
	// A key added to the query before its label: readable words, never the bare column name.
	return exportField{Key: key, Label: strings.ToUpper(key[:1]) + strings.ReplaceAll(key[1:], "_", " ")}
}

// exportDictionary is diccionario.json: a Spanish description of every key of datos.json
// ("datos.pagos.monto"), and the words for each coded value.
func exportDictionary() ([]byte, error) {
	keys := map[string]string{}
	values := map[string]map[string]string{}
	for k, d := range exportTopKeys {
		keys[k] = d
	}
	for _, s := range exportSections {
		keys["datos."+s.Key] = s.Description
		for _, f := range s.Fields {
			path := "datos." + s.Key + "." + f.Key
			keys[path] = f.Label + ": " + f.Description
			if f.Codes != nil && !isYesNo(f.Codes) {
				values[path] = f.Codes
			}
		}
	}
	return json.MarshalIndent(map[string]any{
		"descripcion": "Qué significa cada clave de datos.json. Las claves de cada sección se escriben sección.clave " +
			"(por ejemplo datos.pagos.monto). En «valores», lo que significa cada código guardado.",
		"claves":  keys,
		"valores": values,
	}, "", "  ")
}

func isYesNo(m map[string]string) bool { return len(m) == 2 && m["true"] != "" && m["false"] != "" }

// cellOf writes one value of a record in words.
func cellOf(f exportField, v any, rec map[string]any) string {
	if f.Format != nil {
		return f.Format(v, rec)
	}
	if f.Codes != nil {
		code := ""
		switch x := v.(type) {
		case nil:
			code = ""
		case bool:
			code = fmt.Sprint(x)
		case float64:
			code = number(x)
		case string:
			code = x
		}
		if name, ok := f.Codes[code]; ok {
			return name
		}
		if v == nil {
			return "—"
		}
	}
	return cellText(v)
}

func number(f float64) string {
	return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.2f", f), "0"), ".")
}

func cellText(v any) string {
	switch x := v.(type) {
	case nil:
		return "—"
	case bool:
		if x {
			return "Sí"
		}
		return "No"
	case string:
		if t, err := time.Parse(time.RFC3339Nano, x); err == nil {
			return perfilseguro.MexicoDateTime(t)
		}
		return x
	case float64:
		return number(x)
	default:
		b, _ := json.Marshal(x)
		return string(b)
	}
}

type summaryItem struct {
	Label, Value, Explain string
}

type summaryPart struct {
	Title       string
	Description string
	Table       bool            // a list of short records: one row each
	Columns     []string        // Table
	Rows        [][]string      // Table
	Records     [][]summaryItem // otherwise: one block of label and value per record
	Empty       bool
}

type summaryGroup struct {
	Title string
	Parts []summaryPart
}

type summaryPage struct {
	Generated string
	Version   string
	Groups    []summaryGroup
}

// tableMaxFields: records with this many fields or fewer read well as table rows, even on a phone.
const tableMaxFields = 5

// summaryOf lays the data out as the notice groups it: each record as label and value, or a
// table row when its records are short.
func summaryOf(doc map[string]any, now time.Time) summaryPage {
	page := summaryPage{Generated: perfilseguro.MexicoDateTime(now), Version: perfilseguro.PrivacyNoticeVersion}
	shown := map[string]bool{}
	for _, g := range exportGroups {
		group := summaryGroup{Title: g.Title}
		for _, p := range g.Parts {
			sec, _ := sectionByKey(p.Section)
			shown[p.Section] = true
			group.Parts = append(group.Parts, partOf(sec, p, doc[p.Section]))
		}
		page.Groups = append(page.Groups, group)
	}
	// A section the query gained before this layout: still shown, under "Otros datos".
	var rest []string
	for k := range doc {
		if !shown[k] {
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	if len(rest) > 0 {
		group := summaryGroup{Title: "Otros datos"}
		for _, k := range rest {
			sec, ok := sectionByKey(k)
			if !ok {
				sec = exportSection{Key: k, Title: exportSection{}.field(k).Label}
			}
			group.Parts = append(group.Parts, partOf(sec, exportPart{Section: k}, doc[k]))
		}
		page.Groups = append(page.Groups, group)
	}
	return page
}

func partOf(sec exportSection, p exportPart, value any) summaryPart {
	part := summaryPart{Title: p.Title, Description: p.Description}
	if part.Title == "" {
		part.Title = sec.Title
	}
	if part.Description == "" {
		part.Description = sec.Description
	}
	var records []map[string]any
	switch v := value.(type) {
	case map[string]any:
		records = []map[string]any{v}
	case []any:
		for _, r := range v {
			if m, ok := r.(map[string]any); ok {
				records = append(records, m)
			}
		}
	}
	if len(records) == 0 {
		part.Empty = true
		return part
	}
	keys := p.Fields
	if keys == nil {
		for _, f := range sec.Fields {
			keys = append(keys, f.Key)
		}
		// Keys the records hold beyond the known ones, in a stable order.
		var extra []string
		for k := range records[0] {
			if !sec.known(k) {
				extra = append(extra, k)
			}
		}
		sort.Strings(extra)
		keys = append(keys, extra...)
	}
	var fields []exportField
	for _, k := range keys {
		if _, held := records[0][k]; held {
			fields = append(fields, sec.field(k))
		}
	}
	_, single := value.(map[string]any)
	part.Table = !single && len(fields) <= tableMaxFields
	for _, f := range fields {
		part.Columns = append(part.Columns, f.Label)
	}
	for _, r := range records {
		if part.Table {
			row := make([]string, len(fields))
			for i, f := range fields {
				row[i] = cellOf(f, r[f.Key], r)
			}
			part.Rows = append(part.Rows, row)
			continue
		}
		var items []summaryItem
		for _, f := range fields {
			it := summaryItem{Label: f.Label, Value: cellOf(f, r[f.Key], r)}
			if f.Explain {
				it.Explain = f.Description
			}
			items = append(items, it)
		}
		part.Records = append(part.Records, items)
	}
	return part
}

var exportSummary = template.Must(template.New("summary").Parse(`<!doctype html>
<html lang="es-MX"><head><meta charset="utf-8"><title>Tus datos en Perfil Seguro</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font-family:Arial,Helvetica,sans-serif;color:#0f172a;max-width:960px;margin:24px auto;padding:0 16px;line-height:1.45}
h2{margin-top:32px;border-bottom:2px solid #cbd5e1;padding-bottom:4px}h3{margin:20px 0 4px}.desc{color:#475569;margin:0 0 8px}
table{border-collapse:collapse;width:100%;margin:8px 0 16px;font-size:14px}th,td{border:1px solid #cbd5e1;padding:6px;text-align:left;vertical-align:top}
th{background:#f1f5f9}.wrap{overflow-x:auto}
dl{display:grid;grid-template-columns:minmax(140px,16em) 1fr;gap:4px 16px;margin:8px 0 16px;padding:10px;border:1px solid #cbd5e1;border-radius:6px;font-size:14px}
dt{font-weight:bold}dd{margin:0}.explain{display:block;color:#475569;font-size:13px}
@media (max-width:560px){dl{grid-template-columns:1fr}dd{margin-bottom:6px}}</style></head>
<body><h1>Tus datos en Perfil Seguro</h1>
<p>Esta es una copia de todos los datos personales que Perfil Seguro tiene sobre ti, agrupados como en nuestro aviso de privacidad.
La generamos el {{.Generated}}. <strong>Todas las fechas y horas están en hora de la Ciudad de México (America/Mexico_City).</strong>
Aviso de privacidad vigente: versión {{.Version}}.</p>
<p>El archivo <code>datos.json</code> tiene lo mismo en un formato que otros programas pueden leer, y <code>diccionario.json</code> explica cada uno de sus campos.</p>
{{range .Groups}}<h2>{{.Title}}</h2>
{{range .Parts}}<h3>{{.Title}}</h3>{{if .Description}}<p class="desc">{{.Description}}</p>{{end}}
{{if .Empty}}<p>Sin registros.</p>
{{else if .Table}}<div class="wrap"><table><thead><tr>{{range .Columns}}<th scope="col">{{.}}</th>{{end}}</tr></thead>
<tbody>{{range .Rows}}<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>{{end}}</tbody></table></div>
{{else}}{{range .Records}}<dl>{{range .}}<dt>{{.Label}}</dt><dd>{{.Value}}{{if .Explain}}<span class="explain">{{.Explain}}</span>{{end}}</dd>{{end}}</dl>
{{end}}{{end}}{{end}}{{end}}</body></html>`))
