import { runService } from '@wcs/runtime';
import { extractWorkerService } from './service';

runService(extractWorkerService);
