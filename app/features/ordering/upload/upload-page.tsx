// Upload materials (spec 2.1, footer hidden): the process line, the order in
// brief, the effect-date select, one card per applicant with the checklist of
// their identity (photo and electronic items: upload with progress, preview,
// replace, delete), and a footer whose '下一步' opens once nothing required is
// missing — to the interview step when the product has one, else to confirm.
// An order no longer in draft gets a clear message and its detail page.
import { LeftOutlined } from '@ant-design/icons';
import { Button, Result } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import type { MaterialDeleteResult, MaterialListResult, MaterialUploadResult } from '../../../../common/material';
import type { OrderDetail } from '../../../../common/order';
import { LoadingOverlay } from '../../../components/loading-overlay';
import { ApiError, apiRequest } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { OrderingSteps } from '../ordering-steps';
import { ApplicantCard } from './applicant-card';
import { EffectDate } from './effect-date';
import { nextPath, type UploadTarget, withDeleted, withUploaded } from './upload-model';
import { useUploads } from './use-uploads';
import '../ordering-page.css';
import './upload.css';

type LoadState =
  { kind: 'loading' } | { kind: 'ready'; list: MaterialListResult; order: OrderDetail } | { kind: 'missing'; message: string } | { kind: 'failed' };

export function UploadPage({ userOrderId }: { userOrderId: number }) {
  const [state, setState] = useState<LoadState>({ kind: 'loading' });
  const [reloads, setReloads] = useState(0);
  const navigate = useNavigate();

  useEffect(() => {
    const controller = new AbortController();
    const options = { signal: controller.signal, toast: false };
    Promise.all([
      apiRequest<MaterialListResult>('/www/order/material_list', { user_order_id: userOrderId }, options),
      apiRequest<OrderDetail>('/www/order/order_detail_get', { user_order_id: userOrderId }, options),
    ]).then(
      ([list, order]) => setState({ kind: 'ready', list, order }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        if (error instanceof ApiError && error.httpStatus === 401) return; // the session handling takes over
        setState(error instanceof ApiError && error.ret > 0 ? { kind: 'missing', message: error.message } : { kind: 'failed' });
      },
    );
    return () => controller.abort();
  }, [userOrderId, reloads]);

  const setList = (change: (list: MaterialListResult) => MaterialListResult) =>
    setState((current) => (current.kind === 'ready' ? { ...current, list: change(current.list) } : current));

  const onUploaded = useCallback(
    (target: UploadTarget, result: MaterialUploadResult) => setList((list) => withUploaded(list, target, result.file, result.missing)),
    [],
  );
  const maxBytes = state.kind === 'ready' ? state.list.max_file_bytes : 10 * 1024 * 1024;
  const uploads = useUploads(userOrderId, maxBytes, onUploaded);

  const remove = async (fileId: number) => {
    try {
      const result = await apiRequest<MaterialDeleteResult>('/www/order/material_delete', { user_order_id: userOrderId, file_id: fileId }, { toast: false });
      setList((list) => withDeleted(list, fileId, result.missing));
      toast.success('文件已删除');
    } catch (error) {
      if (error instanceof ApiError && error.httpStatus === 401) return;
      toast.error(error instanceof ApiError ? error.message : '删除失败，请重试');
      // The order may have moved on (confirmed elsewhere): show it as it is now.
      if (error instanceof ApiError && error.ret > 0) setReloads((count) => count + 1);
    }
  };

  const ready = state.kind === 'ready' ? state : null;
  const list = ready?.list;
  const missingCount = list?.missing.length ?? 0;

  return (
    <div className="ordering-page up-page" data-testid="upload-page">
      <Link to="/order/order-list" className="ordering-back">
        <LeftOutlined /> 我的订单
      </Link>
      <LoadingOverlay loading={state.kind === 'loading'} loadingText="正在加载资料清单">
        {state.kind === 'missing' ? (
          <Result
            status="warning"
            title={state.message}
            extra={
              <Button type="primary" onClick={() => navigate('/order/order-list')}>
                返回我的订单
              </Button>
            }
          />
        ) : state.kind === 'failed' ? (
          <Result
            status="warning"
            title="资料清单加载失败"
            extra={
              <Button type="primary" onClick={() => setReloads((count) => count + 1)}>
                重新加载
              </Button>
            }
          />
        ) : ready && list && list.mode !== 'draft' ? (
          <Result
            status="info"
            data-testid="upload-locked"
            title={list.mode === 'reupload' ? '有资料审核未通过，请重新上传' : `订单${list.status_label}，资料不能再修改`}
            subTitle={list.mode === 'reupload' ? '请在重新上传页面查看审核意见并补充资料。' : '已上传的资料可在订单详情中查看。'}
            extra={
              list.mode === 'reupload' ? (
                <Button type="primary" onClick={() => navigate(`/order/order-reupload/${userOrderId}`)}>
                  去重新上传
                </Button>
              ) : (
                <Button type="primary" onClick={() => navigate(`/order/order-detail/${userOrderId}`)}>
                  查看订单详情
                </Button>
              )
            }
          />
        ) : ready && list ? (
          <>
            <h1 className="up-title">上传资料</h1>
            <div className="up-section up-steps">
              <OrderingSteps current="upload" needInterview={ready.order.need_interview} />
            </div>
            <section className="up-section up-brief" data-testid="upload-brief">
              <div className="up-brief-title">{ready.order.product_title}</div>
              <div className="up-muted">
                出发日期 {ready.order.departure_date} · 办理日期 {ready.order.order_date} · {ready.order.applicant_count} 位申请人
              </div>
            </section>
            <EffectDate list={list} onSaved={(effectDate) => setList((current) => ({ ...current, effect_date: effectDate }))} />
            {list.applicants.map((applicant, index) => (
              <ApplicantCard
                key={applicant.applicant_id}
                list={list}
                applicant={applicant}
                index={index}
                inFlight={uploads.items}
                onUpload={(target, file, replaceFileId) => void uploads.start(target, file, replaceFileId)}
                onDelete={remove}
                onDismiss={uploads.dismiss}
              />
            ))}
            <footer className="ordering-footer up-footer" data-testid="upload-footer">
              <div className="ordering-footer-inner up-footer-inner">
                <div className="up-footer-text" data-testid="upload-missing">
                  {missingCount > 0 ? (
                    <>
                      还差 <strong>{missingCount}</strong> 项必备资料
                    </>
                  ) : (
                    <span className="up-done">必备资料已齐全</span>
                  )}
                </div>
                <div className="up-footer-buttons">
                  <Button size="large" onClick={() => navigate('/order/order-list')}>
                    稍后上传
                  </Button>
                  <Button
                    type="primary"
                    size="large"
                    className="up-footer-next"
                    disabled={missingCount > 0 || uploads.busy}
                    onClick={() => navigate(nextPath(userOrderId, ready.order.need_interview))}
                    data-testid="upload-next"
                  >
                    下一步
                  </Button>
                </div>
              </div>
            </footer>
          </>
        ) : (
          <div className="up-placeholder" />
        )}
      </LoadingOverlay>
    </div>
  );
}
