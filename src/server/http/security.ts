import 'server-only';
export { baseSecurityHeaders } from '@/front/answers';
