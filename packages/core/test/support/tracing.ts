/**
 * A tracer that records every span it makes (an in-memory exporter), over the one already
 * installed: provide the layer, then read `spans`.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Tracer from "effect/Tracer"

export const recording = (spans: Array<Tracer.Span>): Layer.Layer<never> =>
  Layer.unwrapEffect(Effect.map(Effect.tracer, (base) =>
    Layer.setTracer(Tracer.make({
      span: (...args) => {
        const span = base.span(...args)
        spans.push(span)
        return span
      },
      context: (f, fiber) => base.context(f, fiber)
    }))))
