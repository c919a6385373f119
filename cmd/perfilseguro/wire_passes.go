package main

import (
	"encoding/base64"
	"fmt"
	"os"
	"strings"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/api"
	"github.com/perfilseguro/perfilseguro/provider/apns"
	"github.com/perfilseguro/perfilseguro/provider/applewallet"
	"github.com/perfilseguro/perfilseguro/provider/devsim"
	"github.com/perfilseguro/perfilseguro/provider/googlewallet"
	"github.com/perfilseguro/perfilseguro/worker"
)

// wirePassesAPI: the API serves passes from storage and needs no signing material.
func (a *app) wirePassesAPI(d *api.Deps) error { return nil }

// wirePassesWorker gives the pass jobs their signers: the configured Apple certificate and Google
// service account, or development material generated once in DATA_DIR.
func (a *app) wirePassesWorker(d *worker.Deps) error {
	c := a.cfg
	var appleCfg applewallet.Config
	var err error
	if c.Apple.CertPEM != "" {
		appleCfg, err = applewallet.LoadConfigFromPEM([]byte(c.Apple.CertPEM), []byte(c.Apple.KeyPEM),
			[]byte(c.Apple.WWDRPEM), c.Apple.PassTypeID, c.Apple.TeamID)
	} else {
		appleCfg, err = applewallet.DevConfig(c.DataDir)
	}
	if err != nil {
		return fmt.Errorf("apple wallet: %w", err)
	}
	apple, err := applewallet.New(appleCfg)
	if err != nil {
		return fmt.Errorf("apple wallet: %w", err)
	}

	var googleCfg googlewallet.Config
	if c.Google.ServiceAccountJSON != "" {
		raw := []byte(c.Google.ServiceAccountJSON)
		if !strings.HasPrefix(strings.TrimSpace(c.Google.ServiceAccountJSON), "{") {
			// A path to the key file rather than its content.
			if raw, err = os.ReadFile(c.Google.ServiceAccountJSON); err != nil {
				return fmt.Errorf("google wallet: %w", err)
			}
		}
		email, key, err := googlewallet.LoadServiceAccountJSON(raw)
		if err != nil {
			return fmt.Errorf("google wallet: %w", err)
		}
		googleCfg = googlewallet.Config{IssuerID: c.Google.IssuerID, ClassSuffix: c.Google.ClassSuffix,
			ServiceAccountEmail: email, PrivateKey: key, Origins: []string{c.PublicBaseURL}}
	} else if googleCfg, err = googlewallet.DevConfig(c.DataDir, []string{c.PublicBaseURL}); err != nil {
		return fmt.Errorf("google wallet: %w", err)
	}
	// Saved objects are updated through the REST API with the service account; the development
	// key's objects live only in the inbox.
	var objects perfilseguro.GooglePassUpdater = devsim.Inbox{DB: a.db}
	if c.Google.ServiceAccountJSON != "" {
		if objects, err = googlewallet.NewUpdater(googleCfg, googlewallet.UpdaterOptions{
			BaseURL: c.Google.APIBaseURL, TokenURL: c.Google.TokenURL}); err != nil {
			return fmt.Errorf("google wallet: %w", err)
		}
	}
	pusher, err := a.passPusher()
	if err != nil {
		return err
	}
	d.Passes = worker.PassesDeps{Apple: apple, Google: googlewallet.New(googleCfg), Pusher: pusher, GoogleObjects: objects}
	return nil
}

// passPusher is APNs with the configured key, or the development inbox (refused in production
// by config).
func (a *app) passPusher() (perfilseguro.PassUpdatePusher, error) {
	c := a.cfg.Apple
	if c.APNsKeyPEM == "" {
		return devsim.Inbox{DB: a.db}, nil
	}
	raw := []byte(c.APNsKeyPEM)
	if decoded, err := base64.StdEncoding.DecodeString(strings.TrimSpace(c.APNsKeyPEM)); err == nil {
		raw = decoded // base64 of the .p8, handy in environment variables
	}
	key, err := apns.ParsePrivateKey(raw)
	if err != nil {
		return nil, fmt.Errorf("APNS_PRIVATE_KEY_PEM: %w", err)
	}
	client, err := apns.New(apns.Config{BaseURL: c.APNsBaseURL, KeyID: c.APNsKeyID, TeamID: c.TeamID,
		Topic: c.PassTypeID, PrivateKey: key})
	if err != nil {
		return nil, fmt.Errorf("apns: %w", err)
	}
	return client, nil
}
