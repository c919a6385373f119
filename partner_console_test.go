package perfilseguro_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	perfilseguro "github.com/perfilseguro/perfilseguro"
)

func TestPartnerRolesAllowWhatTheConsoleSays(t *testing.T) {
	t.Parallel()
	all := []perfilseguro.PartnerAction{perfilseguro.PartnerRead, perfilseguro.PartnerManageKeys, perfilseguro.PartnerManageWebhook,
		perfilseguro.PartnerManageOrigin, perfilseguro.PartnerResend, perfilseguro.PartnerManageTeam}
	for _, a := range all {
		require.True(t, perfilseguro.PartnerRoleAllows(perfilseguro.PartnerRoleOwner, a), a)
		require.Equal(t, a != perfilseguro.PartnerManageTeam, perfilseguro.PartnerRoleAllows(perfilseguro.PartnerRoleDeveloper, a), a)
		require.Equal(t, a == perfilseguro.PartnerRead, perfilseguro.PartnerRoleAllows(perfilseguro.PartnerRoleReader, a), a)
		require.False(t, perfilseguro.PartnerRoleAllows("administrador", a), a)
	}
}

func TestANewPartnerUserIsNormalizedAndValidated(t *testing.T) {
	t.Parallel()
	u := perfilseguro.NewPartnerUser{Email: " Ana@CasaLista.MX ", Name: "  Ana   Ruiz ", Role: "desarrollador"}
	require.NoError(t, u.Validate())
	require.Equal(t, "ana@casalista.mx", u.Email)
	require.Equal(t, "Ana Ruiz", u.Name)
	bad := perfilseguro.NewPartnerUser{Email: "ana", Name: "A", Role: "jefa"}
	err := bad.Validate()
	var de *perfilseguro.Error
	require.ErrorAs(t, err, &de)
	require.Equal(t, perfilseguro.EINVALID, de.Code)
	require.Equal(t, "Email inválido", de.Message)
	require.Len(t, de.Fields, 3)
}

// During a rotation the header carries one v1= per secret, the new one first; a receiver holding
// either secret accepts it, one holding neither does not.
func TestARotatingWebhookIsSignedWithBothSecrets(t *testing.T) {
	t.Parallel()
	now := time.Unix(1_800_000_000, 0)
	body := []byte(`{"event":"verification_session.completed"}`)
	one := perfilseguro.SignPartnerWebhook("whsec_nuevo", now, body)
	require.Equal(t, 1, strings.Count(one, "v1="))
	both := perfilseguro.SignPartnerWebhook("whsec_nuevo", now, body, "whsec_viejo")
	require.True(t, strings.HasPrefix(both, one+",v1="), both)
	for _, secret := range []string{"whsec_nuevo", "whsec_viejo"} {
		require.NoError(t, perfilseguro.VerifyPartnerWebhook(secret, both, body, now, time.Minute), secret)
	}
	require.Error(t, perfilseguro.VerifyPartnerWebhook("whsec_otro", both, body, now, time.Minute))
	require.Error(t, perfilseguro.VerifyPartnerWebhook("whsec_viejo", one, body, now, time.Minute))
	require.Equal(t, one, perfilseguro.SignPartnerWebhook("whsec_nuevo", now, body, "", "whsec_nuevo"), "empty or repeated secrets add nothing")
}
