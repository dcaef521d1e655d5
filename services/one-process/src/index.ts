export { loadOneProcessEnv, type OneProcessEnv, oneProcessEnvSchema } from './env';
export {
  oneProcessShutdownDeadlineMs,
  type RunningOneProcess,
  startOneProcess,
} from './one-process';
export { oneProcessService } from './service';
