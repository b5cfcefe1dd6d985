import { type PageData, dataHook } from '../../../lib/pageData.server'

export type Data = PageData<'service-category'>

export const data = dataHook('service-category')
