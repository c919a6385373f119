package api

import (
	"strings"

	"github.com/perfilseguro/perfilseguro/postgres"
)

// The Bitácora speaks Spanish (issue 38): each action code has a label, each target a name. The
// codes stay in the data, in the filters and in the CSV's own columns; these are for reading.

// auditActionLabels names every action the API records.
var auditActionLabels = map[string]string{
	"admin.aml.risk_weight":                 "Cambio de ponderaciones de riesgo LFPIORPI",
	"admin.aml.threshold":                   "Cambio de umbrales LFPIORPI",
	"admin.aml.uma":                         "Cambio del valor de la UMA",
	"admin.create":                          "Alta de administrador",
	"admin.disable":                         "Baja de administrador",
	"admin.enrol":                           "Registro de administrador",
	"admin.enrolment":                       "Invitación de administrador",
	"admin.reauth":                          "Confirmación de identidad del administrador",
	"admin.role":                            "Cambio de rol de administrador",
	"admin.signin":                          "Inicio de sesión de administrador",
	"admin.signin.passkey":                  "Inicio de sesión de administrador con llave de acceso",
	"admin.signin.password":                 "Inicio de sesión de administrador con contraseña",
	"aml_file.authority_download":           "Descarga de un expediente LFPIORPI a petición de una autoridad",
	"arco.create":                           "Solicitud ARCO registrada",
	"arco.resolve":                          "Solicitud ARCO resuelta",
	"audit.read":                            "Consulta de la bitácora",
	"partner.create":                        "Alta de plataforma",
	"partner.delete":                        "Eliminación de plataforma",
	"partner.disable":                       "Desactivación de plataforma",
	"partner.enable":                        "Reactivación de plataforma",
	"partner.user.invite":                   "Invitación a la consola de una plataforma",
	"partner.webhook":                       "Cambio del webhook de una plataforma",
	"partner_api.aviso.file":                "Aviso LFPIORPI marcado como presentado (API)",
	"partner_console.aml_file.download":     "Descarga de un expediente LFPIORPI (consola)",
	"partner_console.aviso.export":          "Descarga de un aviso LFPIORPI (consola)",
	"partner_console.aviso.file":            "Aviso LFPIORPI marcado como presentado (consola)",
	"partner_console.aviso.list":            "Consulta de avisos LFPIORPI (consola)",
	"partner_console.aml_file.read":         "Consulta de un expediente LFPIORPI (consola)",
	"partner_console.hit.resolve":           "Resolución de una posible coincidencia en listas (consola)",
	"partner_console.screening_list.read":   "Consulta de las listas de personas bloqueadas (consola)",
	"partner_console.screening_list.upload": "Carga de una lista de personas bloqueadas (consola)",
	"person.aml_declaration_sign":           "Firma de la declaración LFPIORPI por la persona",
	"partner_console.delivery.resend":       "Reenvío de una notificación (consola)",
	"partner_console.enrol":                 "Registro en la consola de socios",
	"partner_console.key.create":            "Creación de una llave (consola)",
	"partner_console.key.revoke":            "Revocación de una llave (consola)",
	"partner_console.operation.create":      "Registro de una operación LFPIORPI (consola)",
	"partner_console.origin":                "Cambio de orígenes permitidos (consola)",
	"partner_console.origin.verify":         "Revisión de la verificación del origen (consola)",
	"partner_console.signin.passkey":        "Inicio de sesión en la consola con llave de acceso",
	"partner_console.signout":               "Cierre de sesión en la consola",
	"partner_console.user.disable":          "Baja de un miembro del equipo (consola)",
	"partner_console.user.enrolment":        "Nueva invitación a un miembro del equipo (consola)",
	"partner_console.user.invite":           "Invitación a un miembro del equipo (consola)",
	"partner_console.user.role":             "Cambio de rol de un miembro del equipo (consola)",
	"partner_console.webhook.rotate":        "Renovación del secreto del webhook (consola)",
	"partner_console.webhook.url":           "Cambio de la URL del webhook (consola)",
	"payment.completed":                     "Pago completado",
	"payment.refund":                        "Reembolso",
	"person.contact_change":                 "Cambio de correo o teléfono por la persona",
	"person.contact_undo":                   "Cambio de correo o teléfono deshecho desde el aviso",
	"person.identity_adopt":                 "Uso del nombre de la identificación por la persona",
	"person.passkey_confirm":                "Confirmación con llave de acceso",
	"person.passkey_create":                 "Alta de llave de acceso",
	"person.passkey_delete":                 "Eliminación de llave de acceso",
	"person.passkey_rename":                 "Cambio de nombre de llave de acceso",
	"person.passkey_signin":                 "Inicio de sesión con llave de acceso",
	"person.signin.code":                    "Inicio de sesión con código",
	"person.signin.widget":                  "Inicio de sesión con código (widget de una plataforma)",
	"user.create":                           "Alta de persona",
	"user.delete":                           "Eliminación de perfil",
	"user.delete.self":                      "Eliminación de perfil por la persona",
	"user.identity_from_document":           "Nombre tomado de la identificación (validación anterior)",
	"user.identity_review.approve":          "Aprobación de la revisión de identidad",
	"user.identity_review.decline":          "Rechazo de la revisión de identidad",
	"user.revoke":                           "Revocación de la validación",
	"user.revoke.lift":                      "Levantamiento de la revocación",
	"user.update":                           "Edición de perfil",
	"user.verification_level_changed":       "Cambio de nivel de verificación",
}

// auditActionLabel is an action's Spanish label; an action without one shows its code.
func auditActionLabel(action string) string {
	if l, ok := auditActionLabels[action]; ok {
		return l
	}
	return action
}

// auditTargetText names an event's target for reading: "Perfil PS-…", "Llave de acceso «Mi
// iPhone»"; what no longer exists says so with its number.
func auditTargetText(e postgres.AuditEvent) string {
	if e.TargetKind == "" {
		return ""
	}
	label := strings.TrimSpace(e.TargetLabel)
	named := func(noun, gone string) string {
		if label != "" {
			return noun + " " + label
		}
		return noun + " " + gone + " (" + e.TargetID + ")"
	}
	quoted := func(noun, gone string) string {
		if label != "" {
			return noun + " «" + label + "»"
		}
		return noun + " " + gone + " (" + e.TargetID + ")"
	}
	switch e.TargetKind {
	case "user":
		if label == "" {
			return "Persona sin perfil o eliminada (" + e.TargetID + ")"
		}
		return "Perfil " + label
	case "passkey":
		return quoted("Llave de acceso", "eliminada")
	case "partner":
		return quoted("Plataforma", "eliminada")
	case "admin":
		return named("Administrador", "eliminado")
	case "partner_user":
		return named("Miembro del equipo", "eliminado")
	case "arco":
		return "Solicitud ARCO " + e.TargetID
	case "aml_uma":
		return "UMA " + e.TargetID
	case "aml_threshold":
		return "Umbrales LFPIORPI " + e.TargetID
	case "aml_risk_weight":
		return "Ponderación de riesgo " + e.TargetID
	case "aml_aviso":
		return "Aviso LFPIORPI " + e.TargetID
	case "aml_hit":
		return "Posible coincidencia " + e.TargetID
	case "screening_list":
		return "Lista de personas bloqueadas " + e.TargetID
	case "payment":
		return "Pago " + e.TargetID
	case "partner_key":
		return "Llave de plataforma " + e.TargetID
	case "partner_delivery":
		return "Notificación a plataforma " + e.TargetID
	case "aml_operation":
		return "Operación LFPIORPI " + e.TargetID
	case "aml_file":
		op, person, _ := strings.Cut(e.TargetID, "/")
		return "Expediente LFPIORPI de la persona " + person + " en la operación " + op
	}
	return strings.TrimSpace(e.TargetKind + " " + e.TargetID)
}
