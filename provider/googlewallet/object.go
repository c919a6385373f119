package googlewallet

// The JSON shapes below follow the Google Wallet REST reference (v1) for
// GenericObject and the save-to-wallet JWT payload.

type payload struct {
	// GenericClasses carries the class the object names, so that the first save creates it: no
	// one has to create it by hand in Google's console (Google inserts it if missing).
	GenericClasses []genericClass  `json:"genericClasses"`
	GenericObjects []genericObject `json:"genericObjects"`
}

// genericClass is the GenericClass resource; the id is all a generic class needs.
type genericClass struct {
	ID string `json:"id"`
}

type genericObject struct {
	ID                 string          `json:"id"`
	ClassID            string          `json:"classId"`
	State              string          `json:"state"`
	CardTitle          localizedString `json:"cardTitle"`
	Header             localizedString `json:"header"`
	Subheader          localizedString `json:"subheader"`
	TextModulesData    []textModule    `json:"textModulesData"`
	Barcode            barcode         `json:"barcode"`
	ValidTimeInterval  timeInterval    `json:"validTimeInterval"`
	HexBackgroundColor string          `json:"hexBackgroundColor"`
}

type localizedString struct {
	DefaultValue translatedString `json:"defaultValue"`
}

type translatedString struct {
	Language string `json:"language"`
	Value    string `json:"value"`
}

func localized(value string) localizedString {
	return localizedString{DefaultValue: translatedString{Language: language, Value: value}}
}

type textModule struct {
	ID     string `json:"id"`
	Header string `json:"header"`
	Body   string `json:"body"`
}

type barcode struct {
	Type          string `json:"type"`
	Value         string `json:"value"`
	AlternateText string `json:"alternateText"`
}

type timeInterval struct {
	Start *dateTime `json:"start,omitempty"`
	End   *dateTime `json:"end,omitempty"`
}

type dateTime struct {
	Date string `json:"date"` // ISO 8601 with offset
}
