// Re-upload (/order/order-reupload/:userOrderId, issue 9): per applicant only
// the items an operator did not pass, with the operator's memo on each file,
// the material's attention notes and its sample image; replacements upload
// with the same progress, preview, replace and delete as the upload step
// (app/components/upload). 提交审核 opens once no no-pass file is left and
// sends the order back into review. The route's loader reads the checklist.
import { ExclamationCircleOutlined, LeftOutlined } from '@ant-design/icons';
import { Alert, Button, Result, Tag } from 'antd';
import { useCallback, useState } from 'react';
import { Link, useNavigate, useRevalidator } from 'react-router';
import type { MaterialListResult, MaterialUploadResult } from '../../../common/contracts/material';
import { eventAllowed } from '../../../common/order';
import { LoadingOverlay } from '../../components/loading-overlay';
import { MaterialItem } from '../../components/upload/material-item';
import { PhotoItem } from '../../components/upload/photo-item';
import { targetKey, type UploadTarget, withDeleted, withUploaded } from '../../components/upload/upload-model';
import { useUploads } from '../../components/upload/use-uploads';
import { ApiError, api } from '../../lib/api-client';
import { toast } from '../../lib/toast';
import { reuploadItems } from './reupload-model';
import '../../components/upload/upload.css';
import './order.css';

export function ReuploadPage({ userOrderId, list: loadedList }: { userOrderId: number; list: MaterialListResult }) {
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const [list, setList] = useState(loadedList);
  const [shown, setShown] = useState(loadedList);
  const [submitting, setSubmitting] = useState(false);
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
  // Which items to show is decided on the list as loaded: a replaced file turns pending but its item stays.
  const applicants = reuploadItems(loadedList, list);
  const noPassLeft = applicants.reduce((sum, applicant) => sum + applicant.noPassLeft, 0);

  const remove = async (fileId: number) => {
    try {
      const result = await api('/www/order/material_delete', { user_order_id: userOrderId, file_id: fileId }, { toast: false });
      setList((current) => withDeleted(current, fileId, result.missing));
      toast.success('文件已删除');
    } catch (error) {
      if (error instanceof ApiError && error.httpStatus === 401) return;
      toast.error(error instanceof ApiError ? error.message : '删除失败，请重试');
      if (error instanceof ApiError && error.ret > 0) void revalidator.revalidate();
    }
  };

  const submit = async () => {
    setSubmitting(true);
    try {
      await api('/www/order/reupload_submit', { user_order_id: userOrderId }, { toast: false });
      toast.success('已提交审核，请耐心等待');
      navigate(`/order/order-detail/${userOrderId}`);
    } catch (error) {
      if (!(error instanceof ApiError && error.httpStatus === 401)) toast.error(error instanceof ApiError ? error.message : '提交失败，请重试');
      if (error instanceof ApiError && error.ret > 0) void revalidator.revalidate();
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <div className="order-page up-page rup-page" data-testid="reupload-page">
      <Link to="/order/order-list" className="order-back">
        <LeftOutlined /> 我的订单
      </Link>
      <LoadingOverlay loading={revalidator.state === 'loading'} loadingText="正在加载资料">
        {!eventAllowed(list, 'reupload_submit') ? (
          <Result
            status="info"
            data-testid="reupload-closed"
            title="该订单当前无需重新上传资料"
            subTitle={`订单${list.status_label}，审核进度可在订单详情中查看。`}
            extra={
              <Button type="primary" onClick={() => navigate(`/order/order-detail/${userOrderId}`)}>
                查看订单详情
              </Button>
            }
          />
        ) : (
          <>
            <h1 className="order-page-title">重新上传资料</h1>
            <Alert
              className="rup-alert"
              type="warning"
              showIcon
              icon={<ExclamationCircleOutlined />}
              title="以下资料审核未通过"
              description="请按审核意见替换或补充文件，全部处理后点击“提交审核”。审核通过的资料无需再上传。"
            />
            {applicants.map(({ applicant, photo, electronic, noPassLeft: left }, index) => {
              const slot = (materialId: number | null) => {
                const target = { applicantId: applicant.applicant_id, materialId };
                return {
                  inFlight: uploads.items.filter((item) => item.key === targetKey(target)),
                  onUpload: (file: File, replaceFileId: number | null) => void uploads.start(target, file, replaceFileId),
                  onDelete: remove,
                  onDismiss: uploads.dismiss,
                  keepPassed: true,
                };
              };
              return (
                <section
                  key={applicant.applicant_id}
                  className="up-section up-applicant"
                  data-testid="reupload-applicant"
                  data-applicant-id={applicant.applicant_id}
                >
                  <header className="up-applicant-head">
                    <span className="up-applicant-index">{index + 1}</span>
                    <span className="up-applicant-name">{applicant.name}</span>
                    <Tag className="up-identity">{applicant.identity_label}</Tag>
                    <span className={left === 0 ? 'up-applicant-progress up-done' : 'up-applicant-progress'}>
                      {left === 0 ? '已处理' : `${left} 个文件待处理`}
                    </span>
                  </header>
                  <ul className="up-items">
                    {photo ? (
                      <PhotoItem
                        spec={list.photo_spec}
                        files={photo.files}
                        editable={photo.editable}
                        check={photo.check}
                        userOrderId={list.user_order_id}
                        {...slot(null)}
                      />
                    ) : null}
                    {electronic.map((item) => (
                      <MaterialItem
                        key={item.material_id}
                        name={item.name}
                        required={item.required}
                        attention={item.attention}
                        sample={item.sample}
                        files={item.files}
                        editable={item.editable}
                        maxFiles={list.max_files_per_material}
                        {...slot(item.material_id)}
                      />
                    ))}
                  </ul>
                </section>
              );
            })}
            <footer className="rup-footer" data-testid="reupload-footer">
              <div className="rup-footer-inner">
                <div className="up-footer-text" data-testid="reupload-left">
                  {noPassLeft > 0 ? (
                    <>
                      还有 <strong>{noPassLeft}</strong> 个未通过的文件待替换
                    </>
                  ) : (
                    <span className="up-done">未通过的资料已全部处理</span>
                  )}
                </div>
                <div className="up-footer-buttons">
                  <Button size="large" onClick={() => navigate(`/order/order-detail/${userOrderId}`)}>
                    订单详情
                  </Button>
                  <Button
                    type="primary"
                    size="large"
                    className="up-footer-next"
                    disabled={noPassLeft > 0 || uploads.busy}
                    loading={submitting}
                    onClick={() => void submit()}
                    data-testid="reupload-submit"
                  >
                    提交审核
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
