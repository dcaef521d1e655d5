import { runService } from '@wcs/runtime';
import { scrapeWorkerService } from './service';

runService(scrapeWorkerService);
