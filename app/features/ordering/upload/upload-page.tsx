// Upload materials (spec 2.1, footer hidden): the process line, the order in
// brief, the effect-date select, one card per applicant with the checklist of
// their identity (photo and electronic items: upload with progress, preview,
// replace, delete), and a footer whose '下一步' opens once nothing required is
// missing — to the interview step when the product has one, else to confirm.
// An order no longer in draft gets a clear message and its detail page. The
// route's loader reads the checklist and the order on the server.
import { LeftOutlined } from '@ant-design/icons';
import { Button, Result } from 'antd';
import { type ReactNode, useCallback, useState } from 'react';
import { Link, useNavigate, useRevalidator } from 'react-router';
import type { MaterialListResult, MaterialUploadResult } from '../../../../common/contracts/material';
import type { OrderDetail } from '../../../../common/contracts/order';
import { LoadingOverlay } from '../../../components/loading-overlay';
import { OrderingSteps } from '../../../components/ordering-steps';
import { ApiError, api } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { ApplicantCard } from './applicant-card';
import { EffectDate } from './effect-date';
import { nextPath, type UploadTarget, withDeleted, withUploaded } from '../../../components/upload/upload-model';
import { useUploads } from '../../../components/upload/use-uploads';
import '../ordering-page.css';
import '../../../components/upload/upload.css';

export interface UploadPageProps {
  userOrderId: number;
  /** The checklist as the loader read it; uploads and deletes update it from their answers. */
  list: MaterialListResult;
  order: OrderDetail;
  /** Shown above the applicants' checklists (the saved travellers' documents offered: app/features/travellers). */
  extra?: ReactNode;
}

export function UploadPage({ userOrderId, list: loadedList, order, extra }: UploadPageProps) {
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  // The page's list: the loader's, changed by each upload's and delete's answer; a revalidation brings the server's again.
  const [list, setList] = useState(loadedList);
  const [shown, setShown] = useState(loadedList);
  if (loadedList !== shown) {
    setShown(loadedList);
    setList(loadedList);
  }

  const onUploaded = useCallback(
    (target: UploadTarget, result: MaterialUploadResult) =>
      setList((current) => withUploaded(current, target, result.file, result.missing, result.photo_check)),
    [],
  );
  const uploads = useUploads(userOrderId, list.max_file_bytes, onUploaded);

  const remove = async (fileId: number) => {
    try {
      const result = await api('/www/order/material_delete', { user_order_id: userOrderId, file_id: fileId }, { toast: false });
      setList((current) => withDeleted(current, fileId, result.missing));
      toast.success('文件已删除');
    } catch (error) {
      if (error instanceof ApiError && error.httpStatus === 401) return;
      toast.error(error instanceof ApiError ? error.message : '删除失败，请重试');
      // The order may have moved on (confirmed elsewhere): show it as it is now.
      if (error instanceof ApiError && error.ret > 0) void revalidator.revalidate();
    }
  };

  const missingCount = list.missing.length;

  return (
    <div className="ordering-page up-page" data-testid="upload-page">
      <Link to="/order/order-list" className="ordering-back">
        <LeftOutlined /> 我的订单
      </Link>
      <LoadingOverlay loading={revalidator.state === 'loading'} loadingText="正在加载资料清单">
        {list.mode !== 'draft' ? (
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
        ) : (
          <>
            <h1 className="up-title">上传资料</h1>
            <div className="up-section up-steps">
              <OrderingSteps current="upload" needInterview={order.need_interview} />
            </div>
            <section className="up-section up-brief" data-testid="upload-brief">
              <div className="up-brief-title">{order.product_title}</div>
              <div className="up-muted">
                出发日期 {order.departure_date} · 办理日期 {order.order_date} · {order.applicant_count} 位申请人
              </div>
            </section>
            <EffectDate list={list} onSaved={(effectDate) => setList((current) => ({ ...current, effect_date: effectDate }))} />
            {extra}
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
                    onClick={() => navigate(nextPath(userOrderId, order.need_interview))}
                    data-testid="upload-next"
                  >
                    下一步
                  </Button>
                </div>
              </div>
            </footer>
          </>
        )}
      </LoadingOverlay>
    </div>
  );
}
