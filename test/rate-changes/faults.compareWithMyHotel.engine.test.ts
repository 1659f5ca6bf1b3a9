import { describeEveryFault } from './faults';

describeEveryFault('compareWithMyHotel');
