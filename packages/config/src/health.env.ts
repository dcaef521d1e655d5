import { z } from 'zod';

/**
 * The probe server of a worker process (`runService` starts it, @wcs/runtime health-server.ts):
 * `GET /healthz` (readiness: 200 once the service has started, 503 while starting and once its
 * shutdown began) and `GET /livez` (liveness: 200 while the event loop turns). Composed into every
 * worker's env.ts; the gateway has none (it answers /healthz on PORT).
 *
 * Off by default, so several workers on one machine (`scripts/run.sh`, the tests) never clash on a
 * port; the Kubernetes manifests (infra/k8s) set HEALTH_PORT=8080.
 */
export const healthEnv = z.object({
  /** Port of the probe server; 0 = no probe server. */
  HEALTH_PORT: z.coerce
    .number()
    .int()
    .min(0)
    .max(65_535)
    .default(0)
    .describe(
      'workers: probe server, `GET /healthz` (200 once started; 503 while starting or shutting down), `GET /livez` (200 while the process answers); `0` = none, Kubernetes sets 8080',
    ),
  /**
   * Address it listens on. All IPv4 interfaces by default: the kubelet probes the pod's IP, not
   * loopback. `::` for an IPv6 (or dual-stack) pod network.
   */
  HEALTH_HOST: z
    .string()
    .trim()
    .min(1)
    .default('0.0.0.0')
    .describe('workers: address the probe server listens on (`::` for an IPv6 pod network)'),
});
