import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { mockApi } from '@/testing/mock-api'
import { renderRoute } from '@/testing/render-route'

describe('/verification-complete', () => {
  afterEach(() => vi.useRealTimers())

  it('closes the window after 5 seconds', async () => {
    mockApi({})
    const close = vi.spyOn(window, 'close').mockImplementation(() => {})
    vi.useFakeTimers({ shouldAdvanceTime: true })
    renderRoute('/verification-complete')
    expect(await screen.findByRole('heading', { name: 'Verificación completada' })).toBeInTheDocument()
    await vi.advanceTimersByTimeAsync(4900)
    expect(close).not.toHaveBeenCalled()
    await vi.advanceTimersByTimeAsync(200)
    expect(close).toHaveBeenCalledTimes(1)
    close.mockRestore()
  })

  it('closes the window on the button', async () => {
    mockApi({})
    const close = vi.spyOn(window, 'close').mockImplementation(() => {})
    renderRoute('/verification-complete')
    await userEvent.click(await screen.findByRole('button', { name: 'Cerrar ventana' }))
    expect(close).toHaveBeenCalledTimes(1)
    close.mockRestore()
  })
})
