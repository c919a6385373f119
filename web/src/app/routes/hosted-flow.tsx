import { HostedDeclarationStep } from '@/features/aml-declaration/components/hosted-declaration-step'
import { HostedFlowScreen } from '@/features/hosted/components/hosted-flow-screen'
import { SimplifiedNotice } from '@/features/legal/components/simplified-notice'
import { usePageTitle } from '@/lib/page-title'

/**
 * /conectar: a partner's verification request (the drop-in's popup or redirect). The heading and
 * its explanation need no data: the build prerenders them (vite.config.ts), so they paint from
 * the HTML while the screen asks for the request's details.
 */
export function HostedFlowRoute() {
  usePageTitle('Verificación para una plataforma')
  return (
    <>
      <div className="mx-auto max-w-lg px-3 pt-3 sm:px-4 sm:pt-8">
        <h1 className="text-lg font-bold">Verificación de identidad</h1>
        <p className="mt-0.5 text-base text-base-content/80">
          Una plataforma te pide confirmar tu identidad con Perfil Seguro. Tú decides si le compartes tus datos: sin tu permiso no
          se comparte nada.
        </p>
      </div>
      <HostedFlowScreen notice={<SimplifiedNotice headingLevel={3} />} declarationStep={(p) => <HostedDeclarationStep {...p} />} />
    </>
  )
}
