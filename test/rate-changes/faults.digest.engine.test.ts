import { describeEveryFault } from './faults';

describeEveryFault('digest');
