import { Badge } from '@/components/ui/badge'
import type { OperationRisk } from '../types'

const LEVEL: Record<OperationRisk['level'], { text: string; variant: 'success' | 'warning' | 'destructive' }> = {
  bajo: { text: 'Riesgo bajo', variant: 'success' },
  medio: { text: 'Riesgo medio', variant: 'warning' },
  alto: { text: 'Riesgo alto', variant: 'destructive' },
}

/** An operation's risk level and the factors that made it (api.OperationRisk); nothing when hidden. */
export function RiskBadge({ risk }: { risk?: OperationRisk | null }) {
  if (!risk) return null
  const level = LEVEL[risk.level]
  return (
    <div className="flex flex-col gap-1" data-testid="operation-risk">
      <Badge variant={level.variant} className="badge-sm whitespace-nowrap">
        {level.text} ({risk.score})
      </Badge>
      {risk.factors.length > 0 && (
        <ul className="list-disc pl-4 text-xs text-base-content/70">
          {risk.factors.map((f) => (
            <li key={f.key}>
              {f.text} (+{f.weight})
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}
