export { loadOneProcessEnv, type OneProcessEnv, oneProcessEnvSchema } from './env';
export {
  ONE_PROCESS_SERVICES,
  oneProcessShutdownDeadlineMs,
  type RunningOneProcess,
  startOneProcess,
} from './one-process';
export { oneProcessService } from './service';
