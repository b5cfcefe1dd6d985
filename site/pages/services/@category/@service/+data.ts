import { type PageData, dataHook } from '../../../../lib/pageData.server'

export type Data = PageData<'sub-service'>

export const data = dataHook('sub-service')
