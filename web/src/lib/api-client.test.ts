import { QueryClient } from '@tanstack/react-query'
import { describe, expect, it } from 'vitest'
import { mockApi } from '@/testing/mock-api'
import { ApiError, apiRequest, getQueryFn, serverMessage } from './api-client'
import { createQueryClient } from './query-client'

describe('apiRequest', () => {
  it('sends cookies and a JSON content type only with a body', async () => {
    const { calls } = mockApi({ 'POST /api/login': { json: { success: true } }, 'GET /api/auth/status': { json: {} } })
    await apiRequest('POST', '/api/login', { email: 'a@b.mx' })
    await apiRequest('GET', '/api/auth/status')

    expect(calls[0].init?.credentials).toBe('include')
    expect(calls[0].init?.headers).toEqual({ 'Content-Type': 'application/json' })
    expect(calls[0].body).toEqual({ email: 'a@b.mx' })
    expect(calls[1].init?.credentials).toBe('include')
    expect(calls[1].init?.headers).toEqual({})
    expect(calls[1].init?.body).toBeUndefined()
  })

  it('reads success as JSON', async () => {
    mockApi({ 'GET /api/users/7': { json: { id: 7, nombre: 'Ana' } } })
    await expect(apiRequest('GET', '/api/users/7')).resolves.toEqual({ id: 7, nombre: 'Ana' })
  })

  it('throws "{status}: {text}" on failure', async () => {
    mockApi({ 'POST /api/register': { status: 409, text: '{"message":"El correo ya está registrado"}' } })
    const err = await apiRequest('POST', '/api/register', {}).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ApiError)
    expect((err as Error).message).toBe('409: {"message":"El correo ya está registrado"}')
    expect(serverMessage(err, 'fallback')).toBe('El correo ya está registrado')
  })

  it('uses the status text when the body is empty', async () => {
    mockApi({ 'GET /api/users/1': { status: 500, text: '' } })
    await expect(apiRequest('GET', '/api/users/1')).rejects.toThrow('500: Internal Server Error')
  })

  it('names the request of a server-side failure, not of a refusal', () => {
    const failed = new ApiError(503, 'Service Unavailable', '{"message":"El servicio no está disponible.","requestId":"4bf92f3577b34da6a3ce929d0e0e4736"}')
    expect(serverMessage(failed, 'x')).toBe('El servicio no está disponible. Referencia: 4bf92f3577b34da6a3ce929d0e0e4736')
    const refused = new ApiError(400, 'Bad Request', '{"message":"Falta el nombre.","requestId":"4bf92f3577b34da6a3ce929d0e0e4736"}')
    expect(serverMessage(refused, 'x')).toBe('Falta el nombre.')
  })

  it('falls back when the error body has no message', async () => {
    mockApi({ 'GET /api/users/1': { status: 500, text: 'boom' } })
    const err = await apiRequest('GET', '/api/users/1').catch((e: unknown) => e)
    expect(serverMessage(err, 'Error al iniciar sesión')).toBe('Error al iniciar sesión')
  })
})

describe('getQueryFn', () => {
  const run = (on401: 'returnNull' | 'throw') =>
    new QueryClient().fetchQuery({ queryKey: ['/api/users', '5', 'verification-status'], queryFn: getQueryFn({ on401 }) })

  it('joins the query key into the URL and sends cookies', async () => {
    const { calls } = mockApi({ 'GET /api/users/5/verification-status': { json: { verificationLevel: 1 } } })
    await expect(run('throw')).resolves.toEqual({ verificationLevel: 1 })
    expect(calls[0].init?.credentials).toBe('include')
  })

  it('turns 401 into null when asked to', async () => {
    mockApi({ 'GET /api/users/5/verification-status': { status: 401, text: '{"message":"No autorizado"}' } })
    await expect(run('returnNull')).resolves.toBeNull()
  })

  it('throws on 401 by default', async () => {
    mockApi({ 'GET /api/users/5/verification-status': { status: 401, text: '' } })
    await expect(run('throw')).rejects.toThrow('401: Unauthorized')
  })
})

describe('query client defaults', () => {
  it('never retries, never refetches on focus, never polls, never goes stale and treats 401 as an error', async () => {
    const client = createQueryClient()
    const defaults = client.getDefaultOptions().queries!
    expect(defaults.retry).toBe(false)
    expect(defaults.refetchOnWindowFocus).toBe(false)
    expect(defaults.refetchInterval).toBe(false)
    expect(defaults.staleTime).toBe(Infinity)

    const { calls } = mockApi({ 'GET /api/auth/status': { status: 401, text: '' } })
    await expect(client.fetchQuery({ queryKey: ['/api/auth/status'] })).rejects.toThrow('401: Unauthorized')
    expect(calls).toHaveLength(1)
  })
})
