import { type PageData, dataHook } from '../../../lib/pageData.server'

export type Data = PageData<'services'>

export const data = dataHook('services')
