import { runService } from '@wcs/runtime';
import { webhookDispatcherService } from './service';

runService(webhookDispatcherService);
