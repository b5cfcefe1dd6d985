import { type PageData, dataHook } from '../../lib/pageData.server'

export type Data = PageData<'solutions'>

export const data = dataHook('solutions')
