import { staffPhoto } from '@/server/staff/handlers';

export const dynamic = 'force-dynamic';

export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }) {
  return staffPhoto(request, (await params).id);
}
