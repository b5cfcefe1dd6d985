import { type PageData, dataHook } from '../../../../lib/pageData.server'

export type Data = PageData<'insights-category'>

export const data = dataHook('insights-category')
