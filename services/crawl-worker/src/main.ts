import { runService } from '@wcs/runtime';
import { crawlWorkerService } from './service';

runService(crawlWorkerService);
