import { describeEveryFault } from './faults';

describeEveryFault('checkParity');
