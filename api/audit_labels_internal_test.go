package api

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/postgres"
)

// Every action code the API writes has a Spanish label: the codes are read from the source, so a
// new action without one fails here.
func TestEveryAuditActionHasASpanishLabel(t *testing.T) {
	code := regexp.MustCompile(`"((?:admin|arco|audit|partner|partner_console|payment|person|user)\.[a-z_.]+[a-z])"`)
	files, err := filepath.Glob("*.go")
	require.NoError(t, err)
	seen := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") || f == "audit_labels.go" {
			continue
		}
		src, err := os.ReadFile(f)
		require.NoError(t, err)
		for _, m := range code.FindAllStringSubmatch(string(src), -1) {
			seen++
			assert.Contains(t, auditActionLabels, m[1], "%s: %s has no label", f, m[1])
		}
	}
	require.Greater(t, seen, 30, "the codes were found")
	assert.Equal(t, "algo.nuevo", auditActionLabel("algo.nuevo"), "an unknown code shows as itself")
}

func TestAuditTargetsAreNamedForReading(t *testing.T) {
	for _, c := range []struct {
		e    postgres.AuditEvent
		want string
	}{
		{postgres.AuditEvent{TargetKind: "user", TargetID: "1", TargetLabel: "PS-1234-5678-90"}, "Perfil PS-1234-5678-90"},
		{postgres.AuditEvent{TargetKind: "user", TargetID: "9"}, "Persona sin perfil o eliminada (9)"},
		{postgres.AuditEvent{TargetKind: "passkey", TargetID: "1", TargetLabel: "Mi iPhone"}, "Llave de acceso «Mi iPhone»"},
		{postgres.AuditEvent{TargetKind: "passkey", TargetID: "4"}, "Llave de acceso eliminada (4)"},
		{postgres.AuditEvent{TargetKind: "partner", TargetID: "2", TargetLabel: "CasaLista"}, "Plataforma «CasaLista»"},
		{postgres.AuditEvent{TargetKind: "admin", TargetID: "3", TargetLabel: "ana@perfilseguro.mx"}, "Administrador ana@perfilseguro.mx"},
		{postgres.AuditEvent{TargetKind: "arco", TargetID: "12"}, "Solicitud ARCO 12"},
		{postgres.AuditEvent{}, ""},
	} {
		assert.Equal(t, c.want, auditTargetText(c.e))
	}
}
