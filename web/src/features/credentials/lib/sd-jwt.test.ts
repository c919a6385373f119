import fixture from './testdata/credential.json'
import {
  CredentialError,
  parseSdJwt,
  present,
  verifyCredential,
  verifyStatusList,
  type IssuerKey,
} from './sd-jwt'

// The fixture was issued by the Go issuer (credential/webfixture_test.go): this is the browser's
// verifier checking the server's credentials, not its own.
const keys = fixture.jwks.keys as IssuerKey[]
const statusList = (token: string) => async () => verifyStatusList(token, keys)
const check = (compact: string, token = fixture.statusListValid, now?: Date) =>
  verifyCredential(compact, { issuer: fixture.issuer, keys, statusList: statusList(token), now })

describe('the browser verifier of SD-JWT VC credentials', () => {
  it('accepts the issuer’s credential and shows what was disclosed', async () => {
    const v = await check(fixture.credential)
    expect(v.verdict).toBe('valida')
    expect(v.claims.profile_id).toBe('PS-1234-5678-90')
    expect(v.claims.name).toBe('Ana López')
    expect(v.claims.scores).toEqual({ overall: 97.5, face_match: 99.1 })
    expect(v.disclosed.sort()).toEqual(['name', 'origin', 'scores', 'validated_at'])
    expect(v.statusIdx).toBe(4242)
  })

  it('keeps only the chosen claims in a presentation, which still verifies', async () => {
    const onlyName = present(fixture.credential, ['name'])
    expect(parseSdJwt(onlyName).disclosures.map((d) => d.name)).toEqual(['name'])
    const v = await check(onlyName)
    expect(v.verdict).toBe('valida')
    expect(v.claims.name).toBe('Ana López')
    expect(v.claims).not.toHaveProperty('origin')
    expect(v.claims).not.toHaveProperty('validated_at')
  })

  it('reads the document’s claims of a profile certified by its ID, the 18 nested in age_equal_or_over', async () => {
    const v = await check(fixture.documentCredential)
    expect(v.verdict).toBe('valida')
    expect(v.claims.given_name).toBe('Ana María')
    expect(v.claims.family_name).toBe('Ruiz Soto')
    expect(v.claims.birthdate).toBe('1990-03-15')
    expect(v.claims.nationalities).toEqual(['MX'])
    expect(v.claims.personal_administrative_number).toBe('RUSA900315MJCZTN04')
    expect(v.claims.age_equal_or_over).toEqual({ '18': true })
    expect(v.disclosed).not.toContain('18')
    expect(v.disclosed).toContain('age_equal_or_over')
  })

  it('shows the given name without the CURP, and legal age without the birth date', async () => {
    const onlyName = present(fixture.documentCredential, ['given_name'])
    const decoded = parseSdJwt(onlyName).disclosures
    expect(decoded.map((d) => d.name)).toEqual(['given_name'])
    expect(JSON.stringify(decoded)).not.toContain('RUSA900315MJCZTN04')
    const v = await check(onlyName)
    expect(v.claims.given_name).toBe('Ana María')
    expect(v.claims).not.toHaveProperty('personal_administrative_number')
    expect(v.claims).not.toHaveProperty('birthdate')

    const adult = present(fixture.documentCredential, ['age_equal_or_over'])
    expect(parseSdJwt(adult).disclosures.map((d) => d.name).sort()).toEqual(['18', 'age_equal_or_over'])
    const a = await check(adult)
    expect(a.claims.age_equal_or_over).toEqual({ '18': true })
    expect(a.claims).not.toHaveProperty('birthdate')
  })

  it('refuses a nested disclosure shown without the claim that references it', async () => {
    const { jwt, disclosures } = parseSdJwt(fixture.documentCredential)
    const orphan = disclosures.find((d) => d.name === '18')!
    await expect(check([jwt, orphan.encoded, ''].join('~'))).rejects.toMatchObject({ kind: 'disclosure' })
  })

  it('says revoked when the status list has the credential’s bit set', async () => {
    expect((await check(fixture.credential, fixture.statusListRevoked)).verdict).toBe('revocada')
  })

  it('says expired after its exp, without needing the status list', async () => {
    const v = await verifyCredential(fixture.credential, {
      issuer: fixture.issuer, keys, now: new Date('2100-01-01T00:00:00Z'),
      statusList: () => Promise.reject(new Error('not needed')),
    })
    expect(v.verdict).toBe('expirada')
  })

  it('refuses a tampered payload, another key, a forged disclosure and another issuer, each with its reason', async () => {
    const [jwt, ...rest] = fixture.credential.split('~')
    const [h, p, s] = jwt.split('.')
    const payload = JSON.parse(atob(p.replace(/-/g, '+').replace(/_/g, '/')))
    payload.verification_level = 4
    const forgedPayload = btoa(JSON.stringify(payload)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
    await expect(check([[h, forgedPayload, s].join('.'), ...rest].join('~'))).rejects.toMatchObject({ kind: 'signature' })

    const other = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify'])
    const otherJwk = await crypto.subtle.exportKey('jwk', other.publicKey)
    await expect(verifyCredential(fixture.credential, {
      issuer: fixture.issuer, keys: keys.map((k) => ({ ...otherJwk, kid: k.kid })),
      statusList: statusList(fixture.statusListValid),
    })).rejects.toMatchObject({ kind: 'signature' })

    const fake = btoa(JSON.stringify(['c2FsdA', 'name', 'Otra Persona'])).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_')
    const withFake = [jwt, fake, ''].join('~')
    await expect(check(withFake)).rejects.toMatchObject({ kind: 'disclosure' })

    await expect(verifyCredential(fixture.credential, { issuer: 'https://otro.example', keys, statusList: statusList(fixture.statusListValid) }))
      .rejects.toMatchObject({ kind: 'issuer' })
    await expect(check('no es una credencial')).rejects.toBeInstanceOf(CredentialError)
  })

  it('refuses a status list signed by someone else', async () => {
    const [h, p] = fixture.statusListValid.split('.')
    await expect(verifyStatusList(`${h}.${p}.AAAA`, keys)).rejects.toMatchObject({ kind: 'signature' })
  })
})
