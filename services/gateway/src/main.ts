import { runService } from '@wcs/runtime';
import { gatewayService } from './service';

runService(gatewayService);
