package api

import (
	"context"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/go-fuego/fuego"
	"github.com/go-fuego/fuego/option"
	"github.com/go-fuego/fuego/param"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/aml"
	"github.com/perfilseguro/perfilseguro/postgres"
	"github.com/perfilseguro/perfilseguro/secure"
)

// LFPIORPI operations in the partner API (issue 53 item 1): a real-estate business records a
// sale, brokerage, development or rental with the people in it — each linked to a verification
// session they completed with the business — and reads what the law requires of it
// (identification, aviso), computed from the administrators' UMA and thresholds tables
// (aml.Requirement). A test key records and reads test operations only; a live key live ones.
// The console records them too (partner_console_operations.go), with the same request.

// operationsPerHour bounds the operations one partner records per mode.
const operationsPerHour = 600

// operationIDPattern is an operation id: "op_" and 24 hex characters.
var operationIDPattern = regexp.MustCompile(`^op_[0-9a-f]{24}$`)

var errBadOperationID = perfilseguro.FieldError("id", "El identificador de la operación no es válido (op_…).")

// Roles in an operation: the business's (businessRole) and each person's (people[].role).
var (
	operationBusinessRoles = []string{"vendedor", "comprador", "intermediario", "desarrollador", "arrendador", "arrendatario"}
	operationPersonRoles   = []string{"comprador", "vendedor", "arrendador", "arrendatario", "otro"}
)

// maxOperationPeople bounds the people of one operation.
const maxOperationPeople = 20

// NewOperation is an operation a business records.
type NewOperation struct {
	Kind string `json:"kind" enum:"compraventa,intermediacion,desarrollo,arrendamiento" description:"compraventa, intermediacion, desarrollo (desarrollo o preventa) o arrendamiento"`
	// Amount is in pesos with up to two decimals, as a string (never a float): the operation's
	// amount, or the monthly rent for arrendamiento.
	Amount string `json:"amount" description:"Monto en pesos con hasta dos decimales, como texto (\"3500000.00\"); en arrendamiento, la renta mensual"`
	// Cash is how much of Amount was paid in cash (efectivo o metales), "" or "0" for none.
	Cash string `json:"cash,omitempty" description:"Cuánto del monto se pagó en efectivo (pesos con hasta dos decimales); se omite o \"0\" si nada"`
	// Date is the operation's day (AAAA-MM-DD), not in the future (Mexico City).
	Date              string               `json:"date" description:"Fecha de la operación (AAAA-MM-DD), no futura (hora de la Ciudad de México)"`
	PropertyReference string               `json:"propertyReference" description:"Tu referencia del inmueble (1 a 200 caracteres)"`
	BusinessRole      string               `json:"businessRole" enum:"vendedor,comprador,intermediario,desarrollador,arrendador,arrendatario" description:"El papel de tu negocio en la operación"`
	People            []NewOperationPerson `json:"people" description:"Las personas de la operación (1 a 20), cada una con la sesión de verificación que completó con tu plataforma"`
}

// NewOperationPerson is one person in a new operation.
type NewOperationPerson struct {
	Role      string `json:"role" enum:"comprador,vendedor,arrendador,arrendatario,otro"`
	SessionID string `json:"sessionId" description:"La sesión de verificación (vs_…) que la persona completó con tu plataforma, en el mismo modo"`
}

// operation validates the request as of today (Mexico City): an EINVALID error naming each bad
// field in Spanish, or the operation to store (ID, partner and author are the caller's).
func (n NewOperation) operation(today time.Time) (postgres.NewAMLOperation, error) {
	fields := map[string]string{}
	out := postgres.NewAMLOperation{Kind: aml.Activity(n.Kind), PropertyReference: strings.TrimSpace(n.PropertyReference),
		BusinessRole: n.BusinessRole}
	if !out.Kind.Valid() {
		fields["kind"] = "Tipo de operación no válido: compraventa, intermediacion, desarrollo o arrendamiento"
	}
	amount, err := aml.ParseCentavos(n.Amount)
	switch {
	case err != nil:
		fields["amount"] = "El monto debe ser una cantidad en pesos con hasta dos decimales, sin comas (por ejemplo 3500000.00)"
	case amount <= 0:
		fields["amount"] = "El monto debe ser mayor que cero"
	}
	out.Amount = amount
	if strings.TrimSpace(n.Cash) != "" {
		cash, err := aml.ParseCentavos(n.Cash)
		switch {
		case err != nil || cash < 0:
			fields["cash"] = "El monto en efectivo debe ser una cantidad en pesos con hasta dos decimales, sin comas"
		case cash > amount && fields["amount"] == "":
			fields["cash"] = "El monto en efectivo no puede ser mayor que el de la operación"
		}
		out.Cash = cash
	}
	day, err := time.Parse(time.DateOnly, strings.TrimSpace(n.Date))
	switch {
	case err != nil:
		fields["date"] = "La fecha debe tener la forma AAAA-MM-DD"
	case day.After(aml.Day(today)):
		fields["date"] = "La fecha de la operación no puede ser futura"
	}
	out.OperationDate = day
	if l := utf8.RuneCountInString(out.PropertyReference); l < 1 || l > 200 {
		fields["propertyReference"] = "La referencia del inmueble debe tener de 1 a 200 caracteres"
	}
	if !slices.Contains(operationBusinessRoles, n.BusinessRole) {
		fields["businessRole"] = "Papel no válido: vendedor, comprador, intermediario, desarrollador, arrendador o arrendatario"
	}
	switch {
	case len(n.People) == 0:
		fields["people"] = "Indica al menos una persona de la operación"
	case len(n.People) > maxOperationPeople:
		fields["people"] = "Una operación admite hasta 20 personas"
	}
	seen := map[string]bool{}
	for i, p := range n.People {
		key := "people[" + strconv.Itoa(i) + "]"
		if !slices.Contains(operationPersonRoles, p.Role) {
			fields[key+".role"] = "Papel no válido: comprador, vendedor, arrendador, arrendatario u otro"
		}
		switch {
		case !sessionIDPattern.MatchString(p.SessionID):
			fields[key+".sessionId"] = "El identificador de la sesión no es válido (vs_…)"
		case seen[p.SessionID]:
			fields[key+".sessionId"] = "Esta sesión ya está en la operación"
		}
		seen[p.SessionID] = true
		out.People = append(out.People, postgres.NewAMLOperationPerson{Role: p.Role, SessionID: p.SessionID})
	}
	if len(fields) > 0 {
		return out, &perfilseguro.Error{Code: perfilseguro.EINVALID, Message: "Revisa los datos de la operación", Fields: fields}
	}
	return out, nil
}

// OperationRequirement is what the law requires of an operation, and the figures it was measured with.
type OperationRequirement struct {
	Identify bool `json:"identify" description:"La persona cliente debe identificarse"`
	Aviso    bool `json:"aviso" description:"La operación requiere presentar un aviso"`
	UmaYear  int  `json:"umaYear" description:"El año de la UMA vigente el día de la operación"`
	// The UMA and the thresholds in pesos, with two decimals, as strings ("0.00": always).
	UmaDaily                     string `json:"umaDaily" description:"Valor diario de la UMA en pesos"`
	IdentificationThresholdPesos string `json:"identificationThresholdPesos" description:"Umbral de identificación en pesos (0.00: siempre)"`
	AvisoThresholdPesos          string `json:"avisoThresholdPesos" description:"Umbral de aviso en pesos"`
}

// OperationPersonView is one person in an operation as the business reads it.
type OperationPersonView struct {
	ID        int64  `json:"id" description:"Identificador de la persona en la operación (para su expediente)"`
	Role      string `json:"role" enum:"comprador,vendedor,arrendador,arrendatario,otro"`
	SessionID string `json:"sessionId" description:"La sesión de verificación que la persona completó (vacío si ya se depuró)"`
	ProfileID string `json:"profileId,omitempty" description:"El ID Validado, si la persona lo compartió en la sesión"`
	Name      string `json:"name,omitempty" description:"El nombre, si la persona lo compartió en la sesión"`
	// IdentityVerified: the profile's name was read from an identity document that certifies it.
	IdentityVerified bool `json:"identityVerified" description:"La identidad de la persona está certificada con su identificación oficial"`
	// Screening: the lists the person was checked against and the possible hits (null until the
	// first screening runs). Hits are resolved by a person in the console, never through the API.
	Screening *PersonScreeningView `json:"screening" description:"Listas consultadas (nombre, versión y fecha) y posibles coincidencias con su estado; null mientras no se ha consultado. Las coincidencias las resuelve una persona de cumplimiento en la consola, no la API"`
}

// OperationView is an operation as the business reads it.
type OperationView struct {
	ID                string `json:"id"`
	Livemode          bool   `json:"livemode"`
	Kind              string `json:"kind" enum:"compraventa,intermediacion,desarrollo,arrendamiento"`
	Amount            string `json:"amount" description:"Monto en pesos (mensual en arrendamiento)"`
	Cash              string `json:"cash" description:"Cuánto del monto se pagó en efectivo, en pesos (0.00 si nada)"`
	Monthly           bool   `json:"monthly" description:"El monto es una renta mensual"`
	Date              string `json:"date" description:"Fecha de la operación (AAAA-MM-DD)"`
	PropertyReference string `json:"propertyReference"`
	BusinessRole      string `json:"businessRole" enum:"vendedor,comprador,intermediario,desarrollador,arrendador,arrendatario"`
	// Requirement is null when the tables hold no UMA or thresholds for the operation's day
	// (RequirementNote says why).
	Requirement     *OperationRequirement `json:"requirement" description:"Lo que la ley pide para la operación, calculado con las tablas de UMA y umbrales vigentes ese día; null si no hay valores para esa fecha"`
	RequirementNote string                `json:"requirementNote,omitempty" description:"Por qué requirement es null"`
	// Risk is null for the console's roles that do not read compliance data.
	Risk           *OperationRisk        `json:"risk" description:"Nivel de riesgo y sus factores (null para los roles de la consola sin acceso a cumplimiento)"`
	People         []OperationPersonView `json:"people" description:"Las personas de la operación"`
	CreatedAt      time.Time             `json:"createdAt"`
	RetentionUntil string                `json:"retentionUntil" description:"El expediente se conserva hasta este día (10 años desde la operación)"`
	// Stopped: a compliance officer confirmed a hit on a blocked-persons list.
	Stopped       bool       `json:"stopped" description:"La operación está detenida: se confirmó una coincidencia en una lista de personas bloqueadas"`
	StoppedAt     *time.Time `json:"stoppedAt" description:"Cuándo se detuvo (null si no)"`
	StoppedReason string     `json:"stoppedReason,omitempty" description:"Por qué se detuvo"`
}

// OperationList is one keyset page of operations, newest first.
type OperationList struct {
	Data    []OperationView `json:"data"`
	HasMore bool            `json:"hasMore"`
}

func (s *Server) mountPartnerOperations() {
	tag := option.Tags("Socios")
	unauthorized := option.AddError(401, "Llave secreta no válida, revocada o de otro modo", ErrorBody{})
	fuego.Post(s.f, "/api/partner/v1/operations", s.createOperation, tag, unauthorized,
		option.DefaultStatusCode(http.StatusCreated),
		option.Summary("Registrar una operación (LFPIORPI) con las personas que participan (llave secreta)"),
		option.Description("Registra una compraventa, intermediación, desarrollo o arrendamiento, con el monto (renta mensual en arrendamiento), "+
			"la fecha, la referencia del inmueble, el papel de tu negocio y las personas, cada una con la sesión de verificación que completó con tu "+
			"plataforma. La respuesta dice si la operación requiere identificar a la persona cliente y presentar aviso, con los umbrales en UMA "+
			"que publican la ley y el INEGI. Una llave sk_test_ registra operaciones de prueba."),
		option.AddError(422, "Una persona no completó una verificación con tu plataforma (en este modo)", ErrorBody{}),
		option.AddError(429, "Demasiadas operaciones en una hora", ErrorBody{}))
	fuego.Get(s.f, "/api/partner/v1/operations", s.listOperations, tag, unauthorized,
		option.Summary("Listar operaciones, de la más reciente a la más antigua"),
		option.QueryInt("limit", "Cuántas por página (1 a 100; 20 si se omite)"),
		option.Query("startingAfter", "El id de la última operación de la página anterior"))
	fuego.Get(s.f, "/api/partner/v1/operations/{id}", s.getOperation, tag, unauthorized,
		option.Summary("Consultar una operación: lo que la ley pide y sus personas"),
		option.Description("Incluye, por persona, las listas contra las que se consultó (nombre, versión y fecha) y las posibles coincidencias con su "+
			"estado (pendiente, descartada o confirmada), y si la operación está detenida. Resolver una coincidencia es un acto de una persona: "+
			"lo hace el oficial de cumplimiento o el propietario en la consola de socios, no la API."),
		option.Path("id", "Identificador de la operación (op_…)", param.Required()),
		option.AddError(404, "La operación no existe para esta llave", ErrorBody{}))
}

func (s *Server) createOperation(c fuego.ContextWithBody[NewOperation]) (OperationView, error) {
	r := c.Request()
	ctx := r.Context()
	kp, err := s.requireSecretKey(r)
	if err != nil {
		return OperationView{}, err
	}
	req, err := decodeJSON[NewOperation](r)
	if err != nil {
		return OperationView{}, err
	}
	n, err := req.operation(s.now().In(mexicoCity))
	if err != nil {
		return OperationView{}, err
	}
	if err := s.allow(ctx, limit{"operations:" + operationMode(kp.Key.Livemode) + ":" + strconv.FormatInt(kp.Partner.ID, 10), operationsPerHour}); err != nil {
		return OperationView{}, err
	}
	keyID := kp.Key.ID
	n.ID, n.PartnerID, n.TestMode = "op_"+secure.NewToken(12), kp.Partner.ID, !kp.Key.Livemode
	n.CreatedByKey, n.CreatedByLabel = &keyID, "llave "+kp.Key.Hint
	op, err := s.store.InsertAMLOperation(ctx, n)
	if err != nil {
		return OperationView{}, err
	}
	s.queueOperationScreening(ctx, op.ID)
	setStatus(c, http.StatusCreated)
	return s.operationView(ctx, op, true)
}

func (s *Server) listOperations(c fuego.ContextNoBody) (OperationList, error) {
	r := c.Request()
	kp, err := s.requireSecretKey(r)
	if err != nil {
		return OperationList{}, err
	}
	size, after, err := operationPage(r, 20)
	if err != nil {
		return OperationList{}, err
	}
	data, more, err := s.operationPage(r.Context(), kp.Partner.ID, !kp.Key.Livemode, after, size, true)
	return OperationList{Data: data, HasMore: more}, err
}

func (s *Server) getOperation(c fuego.ContextNoBody) (OperationView, error) {
	r := c.Request()
	kp, err := s.requireSecretKey(r)
	if err != nil {
		return OperationView{}, err
	}
	id := c.PathParam("id")
	if !operationIDPattern.MatchString(id) {
		return OperationView{}, errBadOperationID
	}
	op, err := s.store.AMLOperation(r.Context(), kp.Partner.ID, !kp.Key.Livemode, id)
	if err != nil {
		return OperationView{}, err
	}
	return s.operationView(r.Context(), op, true)
}

// operationPage reads ?limit (1-100, size when omitted) and ?startingAfter (an operation id).
func operationPage(r *http.Request, size int) (int, string, error) {
	q := r.URL.Query()
	if raw := q.Get("limit"); raw != "" {
		n, err := strconv.Atoi(raw)
		if err != nil || n < 1 || n > 100 {
			return 0, "", perfilseguro.FieldError("limit", "limit debe ser un número de 1 a 100.")
		}
		size = n
	}
	after := q.Get("startingAfter")
	if after != "" && !operationIDPattern.MatchString(after) {
		return 0, "", perfilseguro.FieldError("startingAfter", "startingAfter debe ser el id de una operación (op_…).")
	}
	return size, after, nil
}

// operationPage is one page of a partner's operations in a mode, measured against the tables
// read once; people only when withPeople.
func (s *Server) operationPage(ctx context.Context, partnerID int64, testMode bool, after string, size int,
	withPeople bool) ([]OperationView, bool, error) {
	rows, err := s.store.AMLOperations(ctx, partnerID, testMode, after, size+1)
	if err != nil {
		return nil, false, err
	}
	tables, err := s.store.AMLTables(ctx)
	if err != nil {
		return nil, false, err
	}
	var reviews map[int64]*postgres.AMLPersonReview
	if withPeople {
		if reviews, err = s.withScreenings(ctx, rows); err != nil {
			return nil, false, err
		}
	}
	page, more := pageOf(rows, size, func(op postgres.AMLOperation) OperationView {
		return operationViewWith(op, tables, withPeople, reviews)
	})
	if withPeople {
		if err := s.addRisk(ctx, rows, page); err != nil {
			return nil, false, err
		}
	}
	return page, more, nil
}

// operationView is op as its business reads it, measured against today's tables.
func (s *Server) operationView(ctx context.Context, op postgres.AMLOperation, withPeople bool) (OperationView, error) {
	tables, err := s.store.AMLTables(ctx)
	if err != nil {
		return OperationView{}, err
	}
	var reviews map[int64]*postgres.AMLPersonReview
	if withPeople {
		if reviews, err = s.withScreenings(ctx, []postgres.AMLOperation{op}); err != nil {
			return OperationView{}, err
		}
	}
	v := []OperationView{operationViewWith(op, tables, withPeople, reviews)}
	if withPeople {
		if err := s.addRisk(ctx, []postgres.AMLOperation{op}, v); err != nil {
			return OperationView{}, err
		}
	}
	return v[0], nil
}

// operationViewWith is op measured against tables; its people only when withPeople (the console's
// roles without compliance reading see none), each with their screening from reviews.
func operationViewWith(op postgres.AMLOperation, tables aml.Tables, withPeople bool, reviews map[int64]*postgres.AMLPersonReview) OperationView {
	v := OperationView{ID: op.ID, Livemode: !op.TestMode, Kind: string(op.Kind), Amount: op.Amount.String(),
		Cash: op.Cash.String(), Monthly: op.Monthly,
		Date: op.OperationDate.Format(time.DateOnly), PropertyReference: op.PropertyReference, BusinessRole: op.BusinessRole,
		People: []OperationPersonView{}, CreatedAt: op.CreatedAt, RetentionUntil: op.RetentionUntil.Format(time.DateOnly)}
	stoppedView(&v, op)
	if res, err := aml.Requirement(op.Kind, op.Amount, op.OperationDate, tables); err == nil {
		v.Requirement = &OperationRequirement{Identify: res.Identify, Aviso: res.Aviso, UmaYear: res.UMAYear,
			UmaDaily: res.UMADaily.String(), IdentificationThresholdPesos: res.IdentificationPesos.String(),
			AvisoThresholdPesos: res.AvisoPesos.String()}
	} else {
		v.RequirementNote = "No hay valores de UMA o umbrales vigentes para la fecha de la operación; Perfil Seguro no puede calcular lo que la ley pide."
	}
	if withPeople {
		for _, p := range op.People {
			v.People = append(v.People, OperationPersonView{ID: p.ID, Role: p.Role, SessionID: p.SessionID, ProfileID: p.ProfileID,
				Name: p.Name, IdentityVerified: p.IdentityVerified, Screening: personScreeningView(reviews[p.ID])})
		}
	}
	return v
}

// operationMode names a key's mode in the rate limit's key: live or test.
func operationMode(live bool) string {
	if live {
		return "live"
	}
	return "test"
}
