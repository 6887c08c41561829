export { baseSecurityHeaders } from '@/front/answers';
