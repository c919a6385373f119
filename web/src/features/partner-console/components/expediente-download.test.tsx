import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { ExpedienteDownload } from './expediente-download'

describe('ExpedienteDownload', () => {
  it("links each format of the person's file in the console's mode", () => {
    render(<ExpedienteDownload mode="test" operationId="op_0123456789abcdef01234567" personId={42} />)
    const pdf = screen.getByRole('link', { name: 'Descargar expediente (PDF)' })
    expect(pdf).toHaveAttribute('href', '/api/socios/operations/op_0123456789abcdef01234567/people/42/expediente?format=pdf&mode=test')
    expect(pdf).toHaveAttribute('download')
    expect(screen.getByRole('link', { name: 'JSON' })).toHaveAttribute(
      'href',
      '/api/socios/operations/op_0123456789abcdef01234567/people/42/expediente?format=json&mode=test',
    )
  })
})
