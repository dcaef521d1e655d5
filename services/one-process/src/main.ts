import { runService } from '@wcs/runtime';
import { oneProcessService } from './service';

runService(oneProcessService);
