import { runService } from '@wcs/runtime';
import { monitorSchedulerService } from './service';

runService(monitorSchedulerService);
