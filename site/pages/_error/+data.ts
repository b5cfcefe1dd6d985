import { notFoundData } from '../../lib/pageData.server'

export type Data = ReturnType<typeof notFoundData>

export const data = notFoundData
