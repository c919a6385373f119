import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { legalInfoFixture as legal } from '@/testing/legal-info'
import { mockApi } from '@/testing/mock-api'
import { renderRoute } from '@/testing/render-route'

// Issue 53 item 6: both notices name the LFPIORPI obligation as the basis for keeping a business's
// AML file 10 years after the operation, even after the account is deleted.

describe('the privacy notices and the LFPIORPI file', { timeout: 20_000 }, () => {
  it('the full notice names the law, the article, the reform, the 10 years and the lock after deletion', async () => {
    mockApi({ 'GET /api/legal': { json: legal } })
    renderRoute('/privacidad')
    const p = await screen.findByTestId('notice-aml-files')
    expect(document.getElementById('conservacion')!.parentElement).toContainElement(p)
    for (const words of [
      /Ley Federal para la Prevención e Identificación de Operaciones con Recursos de Procedencia Ilícita \(artículo 18/,
      /16 de julio de 2025/,
      /durante 10 años desde la operación/,
      /es la base para conservarlo aunque elimines tu cuenta; no requiere tu consentimiento/,
      /queda bloqueado: nadie puede agregarle nada/,
      /Mi Perfil › Plataformas con acceso/,
    ]) {
      expect(p).toHaveTextContent(words)
    }
  })

  it('the simplified notice says it in one sentence', async () => {
    mockApi({})
    renderRoute('/register')
    const p = await screen.findByTestId('simplified-aml-files')
    expect(p).toHaveTextContent(/LFPIORPI, art\. 18, reformado el 16\/07\/2025\) la obliga a conservar tu expediente de identificación 10 años/)
    expect(p).toHaveTextContent(/aun si eliminas tu cuenta; queda bloqueado/)
  })
})
