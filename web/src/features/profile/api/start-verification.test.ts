import { afterEach, describe, expect, it, vi } from 'vitest'
import { mockApi } from '@/testing/mock-api'
import { startVerification } from './start-verification'

describe('startVerification', () => {
  afterEach(() => vi.useRealTimers())

  it('returns the URL at once when the server has it', async () => {
    const { calls } = mockApi({ 'POST /api/start-verification': { json: { verificationUrl: 'http://p/1', sessionId: 3 } } })
    await expect(startVerification('7')).resolves.toMatchObject({ verificationUrl: 'http://p/1' })
    expect(calls).toHaveLength(1)
    expect(calls[0].body).toEqual({ userId: 7 })
  })

  it('polls a pending (202) start until the URL is there', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    let polls = 0
    const { calls } = mockApi({
      'POST /api/start-verification': { status: 202, json: { pending: true, sessionId: 9 } },
      'GET /api/start-verification/9': () =>
        ++polls < 3 ? { status: 202, json: { pending: true, sessionId: 9 } } : { json: { verificationUrl: 'http://p/9', sessionId: 9 } },
    })
    const result = startVerification('7')
    await vi.advanceTimersByTimeAsync(5000)
    await expect(result).resolves.toMatchObject({ verificationUrl: 'http://p/9' })
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      'POST /api/start-verification',
      'GET /api/start-verification/9',
      'GET /api/start-verification/9',
      'GET /api/start-verification/9',
    ])
  })
})
