package worker

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/hibiken/asynq"

	"github.com/perfilseguro/perfilseguro/credential"
	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/postgres"
)

// Status list tokens: valid for a day, and a verifier should fetch a fresh one after ttl.
const (
	statusListValidity = 24 * time.Hour
	statusListTTL      = 5 * time.Minute
)

// CredentialDeps holds the issuer of verifiable credentials; nil disables their jobs.
type CredentialDeps struct {
	Issuer *credential.Issuer
}

func (w *Worker) routesCredentials() {
	if w.deps.Credentials.Issuer == nil {
		return
	}
	w.mux.HandleFunc(jobs.TypeIssueCredential, decoded("credential",
		func(p jobs.IssueCredentialPayload) bool { return p.CredentialID > 0 }, w.handleIssueCredential))
	w.mux.HandleFunc(jobs.TypeBuildStatusList, decoded("status list",
		func(p jobs.BuildStatusListPayload) bool { return p.ListID > 0 }, w.handleBuildStatusList))
}

// handleIssueCredential signs a reserved credential from the person's current record, once.
func (w *Worker) handleIssueCredential(ctx context.Context, p jobs.IssueCredentialPayload) error {
	store := postgres.Store{DB: w.deps.DB, Documents: w.deps.Documents}
	c, err := store.CredentialByID(ctx, p.CredentialID)
	if stop, err := gone(err, postgres.ErrCredentialNotFound); stop {
		return err
	}
	if c.SDJWT != nil || c.RevokedAt != nil || c.UserID == nil {
		return nil // issued already, revoked, or the account is gone
	}
	u, ok, err := userOrGone(ctx, store, *c.UserID)
	if !ok {
		return err
	}
	if u.FechaValidacion == nil {
		return fmt.Errorf("credential %d: user %d has no validation: %w", c.ID, u.ID, asynq.SkipRetry)
	}
	profile, err := store.PublicProfileByID(ctx, u.IDValidado)
	if err != nil {
		return err
	}
	subject := credential.Subject{ProfileID: u.IDValidado, Level: u.VerificationLevel, Name: u.Nombre,
		ValidatedAt: u.FechaValidacion.UTC(), Origin: u.Origen, Scores: scoresOf(profile),
		ExpiresAt: c.ExpiresAt, StatusIdx: c.StatusIdx, StatusURI: jobs.StatusListURL(w.deps.PublicBaseURL, c.ListID)}
	// A profile certified by its ID carries the ID's data (issue 52); one validated before
	// documents were read carries what it always did. The CURP is never logged: errors name
	// the credential and the user only.
	if u.NameFromDocument {
		doc, err := store.CertifyingDocument(ctx, u.ID)
		if err != nil {
			return fmt.Errorf("credential %d: document of user %d: %w", c.ID, u.ID, err)
		}
		if doc != nil {
			subject.Document = credential.PIDOf(*doc)
		}
	}
	if len(c.HolderJWK) > 0 {
		if err := json.Unmarshal(c.HolderJWK, &subject.HolderJWK); err != nil {
			return fmt.Errorf("credential %d: holder key: %w: %w", c.ID, err, asynq.SkipRetry)
		}
	}
	issuer := w.deps.Credentials.Issuer
	sdjwt, err := issuer.Issue(subject)
	if err != nil {
		return fmt.Errorf("issue credential %d: %w", c.ID, err)
	}
	jwk, err := json.Marshal(credential.PublicJWK(issuer.Keys[0]))
	if err != nil {
		return err
	}
	if err := store.SaveIssuedCredential(ctx, c.ID, sdjwt, issuer.Keys[0].ID, jwk); err != nil {
		return err
	}
	// The first credential of a list needs the list to exist for verifiers.
	if _, _, err := store.StatusList(ctx, c.ListID); errors.Is(err, postgres.ErrCredentialNotFound) {
		return w.buildStatusList(ctx, c.ListID)
	}
	return nil
}

// scoresOf is the biometric scores the credential may disclose (those the provider gave).
func scoresOf(p postgres.PublicProfile) map[string]float64 {
	out := map[string]float64{}
	for name, v := range map[string]*float64{"overall": p.OverallScore, "face_match": p.FaceMatchScore,
		"document": p.DocumentScore, "liveness": p.LivenessScore} {
		if v != nil {
			out[name] = *v
		}
	}
	return out
}

// handleBuildStatusList signs the status list again from the revocations in Postgres.
func (w *Worker) handleBuildStatusList(ctx context.Context, p jobs.BuildStatusListPayload) error {
	return w.buildStatusList(ctx, p.ListID)
}

// buildStatusList signs a list from the revocations in Postgres and stores it.
func (w *Worker) buildStatusList(ctx context.Context, listID int) error {
	store := postgres.Store{DB: w.deps.DB}
	revoked, err := store.RevokedStatusIndexes(ctx, listID)
	if err != nil {
		return err
	}
	list := credential.NewStatusList(postgres.StatusListSize)
	for _, idx := range revoked {
		if err := list.Set(idx, true); err != nil {
			return fmt.Errorf("status list %d: %w: %w", listID, err, asynq.SkipRetry)
		}
	}
	token, err := w.deps.Credentials.Issuer.SignStatusList(jobs.StatusListURL(w.deps.PublicBaseURL, listID),
		list, statusListValidity, statusListTTL)
	if err != nil {
		return fmt.Errorf("sign status list %d: %w", listID, err)
	}
	return store.SaveStatusList(ctx, listID, token)
}
