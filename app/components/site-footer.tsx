import { Link } from 'react-router';
import './site-footer.css';

export function SiteFooter() {
  return (
    <footer className="site-footer">
      <div className="site-footer-inner">
        <div className="site-footer-brand">
          <strong>易签通</strong>
          <p>在线自助签证办理平台：资料清单、在线上传、预约面签、护照寄回，一站完成。</p>
        </div>
        <nav className="site-footer-links" aria-label="页脚导航">
          <Link to="/visa/continent">签证办理</Link>
          <Link to="/enterprise">企业服务</Link>
          <Link to="/cooperation">商务合作</Link>
          <Link to="/about">关于我们</Link>
          <Link to="/agreement/user">用户协议</Link>
          <Link to="/download">下载App</Link>
        </nav>
        <div className="site-footer-contact">
          <div>客服热线 400-820-6688</div>
          <div>周一至周日 09:00-21:00</div>
        </div>
      </div>
      <div className="site-footer-copyright">© {new Date().getFullYear()} 易签通 版权所有</div>
    </footer>
  );
}
